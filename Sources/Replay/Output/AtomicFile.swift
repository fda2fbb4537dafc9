import Foundation
import POIARCore

/// Writes a file so that it appears whole or not at all: the data goes to a hidden temporary
/// file in the same folder, which is renamed over the target once complete.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        let tmp = temporaryURL(for: url)
        do {
            try data.write(to: tmp)
            try replace(url, with: tmp)
        } catch let e as InputError {
            try? FileManager.default.removeItem(at: tmp)
            throw e
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            throw InputError(file: url.path, "cannot write: \(error.localizedDescription)")
        }
    }

    /// A temporary name beside `url` (same folder, so the final rename is atomic).
    public static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp")
    }

    /// Renames `tmp` over `url`.
    public static func replace(_ url: URL, with tmp: URL) throws {
        if rename(tmp.path, url.path) != 0 {
            let message = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: tmp)
            throw InputError(file: url.path, "cannot write: \(message)")
        }
    }
}

/// A text file written line by line to a temporary file and renamed into place on `commit()`;
/// dropped without a trace if never committed.
public final class AtomicTextWriter {
    public let url: URL
    private let tmp: URL
    private let handle: FileHandle
    private var buffer = LineBytes.allocate(capacity: 1 << 17)
    private var committed = false
    private static let flushSize = 1 << 16

    public init(url: URL) throws {
        self.url = url
        tmp = AtomicFile.temporaryURL(for: url)
        guard FileManager.default.createFile(atPath: tmp.path, contents: nil),
              let h = FileHandle(forWritingAtPath: tmp.path) else {
            throw InputError(file: url.path, "cannot create the file: \(String(cString: strerror(errno)))")
        }
        handle = h
    }

    public func write(_ line: String) throws {
        try writeLine { $0.append(contentsOf: line.utf8) }
    }

    /// Writes one line formatted by `fill` straight into the file's buffer (no String).
    @inline(__always)
    public func writeLine(_ fill: (inout LineBytes) -> Void) throws {
        var line = buffer
        fill(&line)
        line.byte(0x0A)
        buffer = line
        if buffer.count > Self.flushSize { try flush() }
    }

    private func flush() throws {
        guard buffer.count > 0 else { return }
        do { try handle.write(contentsOf: UnsafeRawBufferPointer(buffer.bytes)) } catch {
            throw InputError(file: url.path, "cannot write: \(error.localizedDescription)")
        }
        buffer.removeAll()
    }

    public func commit() throws {
        try flush()
        try handle.close()
        try AtomicFile.replace(url, with: tmp)
        committed = true
    }

    deinit {
        buffer.deallocate()
        if !committed {
            try? handle.close()
            try? FileManager.default.removeItem(at: tmp)
        }
    }
}
