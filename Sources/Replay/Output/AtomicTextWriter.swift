import Foundation
import POIARCore

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
        AtomicFile.makeFolder(for: url)
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
