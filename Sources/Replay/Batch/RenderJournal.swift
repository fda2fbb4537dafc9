import FolderExtras
import Foundation
import Frames
import POIARCore

/// The render journal: a hidden file in the output folder with one line per frame written,
/// `frame_000012.png KEY BYTES`, appended right after the frame's PNG is renamed into place.
/// KEY hashes everything the frame's pixels depend on (the replay settings and the frame's
/// manifest line: pose, camera, annotations), so `--resume` can skip a frame exactly when
/// the file on disk is the one this run would write. A frame about to be rewritten over an
/// entry is first marked `frame_000012.png -`, so a run killed between the rename and the
/// next line never leaves an entry that vouches for the wrong file.
///
/// A plain run writes `.poiar-journal` and removes it (and any shard's) once `frames.jsonl`
/// is written; shard I of N writes `.poiar-journal-I-of-N`, so shards sharing a folder never
/// write the same file, and keeps it (a finished shard rerun with `--resume` skips all its
/// frames) until `poiar merge` removes it. The file is created with the first frame written.
/// Every journal in the folder is read; the run's own file last, so its lines win.
final class RenderJournal: @unchecked Sendable {
    static let fileName = ".poiar-journal"

    struct Entry: Equatable {
        var key: String
        var bytes: Int
    }

    let dir: URL
    let url: URL
    private let lock = NSLock()
    private var known: [Int: Entry] = [:]
    private var written: [Int: Entry] = [:]
    private var handle: FileHandle?

    /// Opens the journal of `shard` (nil: a plain run) in `dir`, reading the entries of
    /// every journal there.
    init(dir: URL, shard: ShardSpec?) {
        self.dir = dir
        url = dir.appendingPathComponent(shard?.journalName ?? RenderJournal.fileName)
        let own = url.lastPathComponent
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0.hasPrefix(RenderJournal.fileName) && !$0.hasSuffix(".tmp") && $0 != own }.sorted() + [own]
        for name in names {
            for (frame, entry) in RenderJournal.read(dir.appendingPathComponent(name)) { known[frame] = entry }
        }
    }

    /// What the journals in the folder say was written: frame → key and bytes.
    var entries: [Int: Entry] { known }

    private func open() throws -> FileHandle {
        if let handle { return handle }
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw InputError(file: url.path, "cannot create the render journal: \(String(cString: strerror(errno)))")
            }
        }
        guard let h = FileHandle(forWritingAtPath: url.path) else {
            throw InputError(file: url.path, "cannot open the render journal: \(String(cString: strerror(errno)))")
        }
        h.seekToEndOfFile()
        handle = h
        return h
    }

    deinit { try? handle?.close() }

    /// The entries of one journal file; the last line for a frame wins, `-` removes it.
    /// Lines that do not parse (a run killed mid-line) are ignored.
    static func read(_ url: URL) -> [Int: Entry] {
        guard let data = try? Data(contentsOf: url) else { return [:] }
        var entries: [Int: Entry] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let frame = frameNumber(String(fields[0])) else { continue }
            if fields.count == 2, fields[1] == "-" { entries[frame] = nil; continue }
            guard fields.count == 3, fields[1].count == 16, let bytes = Int(fields[2]) else { continue }
            entries[frame] = Entry(key: String(fields[1]), bytes: bytes)
        }
        return entries
    }

    /// 12 for "frame_000012.png".
    static func frameNumber(_ name: String) -> Int? {
        guard name.hasPrefix("frame_"), name.hasSuffix(".png") else { return nil }
        return Int(name.dropFirst(6).dropLast(4))
    }

    /// True when `frame`'s PNG is on disk with the size the journal recorded for `key`.
    func isComplete(frame: Int, key: String) -> Bool {
        lock.lock()
        let entry = known[frame]
        lock.unlock()
        guard let entry, entry.key == key else { return false }
        let path = dir.appendingPathComponent(FrameRecord.imageName(index: frame)).path
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else { return false }
        return size == entry.bytes
    }

    /// Keeps a skipped frame's entry for the compacted journal.
    func keep(frame: Int) {
        lock.lock(); defer { lock.unlock() }
        written[frame] = known[frame]
    }

    /// Before rewriting `frame`: withdraws an entry that vouches for the file now on disk.
    func willWrite(frame: Int) throws {
        lock.lock(); defer { lock.unlock() }
        guard known[frame] != nil else { return }
        known[frame] = nil
        try append("\(FrameRecord.imageName(index: frame)) -\n")
    }

    /// After `frame`'s PNG is in place.
    func didWrite(frame: Int, key: String) throws {
        let path = dir.appendingPathComponent(FrameRecord.imageName(index: frame)).path
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? -1
        lock.lock(); defer { lock.unlock() }
        let entry = Entry(key: key, bytes: bytes)
        known[frame] = entry
        written[frame] = entry
        try append("\(FrameRecord.imageName(index: frame)) \(key) \(bytes)\n")
    }

    private func append(_ line: String) throws {
        do { try open().write(contentsOf: Data(line.utf8)) } catch let e as InputError { throw e } catch {
            throw InputError(file: url.path, "cannot write the render journal: \(error.localizedDescription)")
        }
    }

    /// After a complete run. A shard's journal is rewritten with its frames only, in order; a
    /// plain run's manifest now vouches for every frame, so every journal in the folder goes.
    func finish(shard: ShardSpec?) throws {
        lock.lock(); defer { lock.unlock() }
        try? handle?.close()
        handle = nil
        if shard != nil {
            try AtomicFile.write(Data(RenderJournal.text(written).utf8), to: url)
        } else {
            RenderJournal.removeAll(in: dir, except: nil)
        }
    }

    static func text(_ entries: [Int: Entry]) -> String {
        entries.keys.sorted().map { "\(FrameRecord.imageName(index: $0)) \(entries[$0]!.key) \(entries[$0]!.bytes)\n" }.joined()
    }

    /// Hidden temporary files a killed run of the same shard (or plain run) left: its
    /// manifest's, its journal's, its video's (a plain run's) and those of its frames. Other
    /// shards' are theirs.
    static func removeLeftoverTemporaries(in dir: URL, shard: ShardSpec?, manifestName: String) {
        let journalName = shard?.journalName ?? fileName
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let body = name.dropFirst()
            var ours = body.hasPrefix(manifestName + ".") || body.hasPrefix(journalName + ".")
                || (shard == nil && body.hasPrefix(VideoEncoder.fileName + "."))
            if let end = body.range(of: ".png.") {
                if let frame = frameNumber(String(body[..<end.lowerBound]) + ".png") {
                    ours = shard?.owns(frame: frame) ?? true
                }
            }
            if ours { try? FileManager.default.removeItem(at: dir.appendingPathComponent(name)) }
        }
    }

    static func removeAll(in dir: URL, except keep: String?) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        for name in names where name.hasPrefix(fileName) && !name.hasSuffix(".tmp") && name != keep {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
        }
    }
}
