import Foundation
import POIARCore

/// Reads a manifest (`frames.jsonl`, a shard's `frames.shard-I-of-N.jsonl`) line by line in
/// constant memory (beyond the longest line: a frame with thousands of POIs in range has a long
/// one, so there is no length limit), and decodes its lines: the one reader of the manifest.
public final class ManifestReader {
    public let path: String
    private let handle: FileHandle
    private var buffer = Data()
    private var atEnd = false
    /// The 1-based number of the line last read.
    public private(set) var lineNumber = 0

    public init(url: URL) throws {
        path = url.path
        guard let h = FileHandle(forReadingAtPath: url.path) else {
            throw InputError(file: url.path, "cannot open: \(String(cString: strerror(errno)))")
        }
        handle = h
    }

    deinit { try? handle.close() }

    /// The next line as written (without its line break), nil at the end of the file.
    public func nextLine() throws -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...nl)
                lineNumber += 1
                return line
            }
            if atEnd {
                guard !buffer.isEmpty else { return nil }
                let line = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                lineNumber += 1
                return line
            }
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 16) ?? Data() } catch {
                throw InputError(file: path, "cannot read: \(error.localizedDescription)")
            }
            if chunk.isEmpty { atEnd = true } else { buffer.append(chunk) }
        }
    }

    /// `line`, the line last read, decoded as `T`; errors name the file, the line and the field.
    public func decode<T: Decodable>(_ type: T.Type, _ line: String) throws -> T {
        try JSONInput.decode(type, from: Data(line.utf8), file: path, line: lineNumber)
    }

    /// The next frame, empty lines passed over; nil at the end of the file.
    public func nextFrame() throws -> ManifestFrame? {
        while let line = try nextLine() {
            if !line.isEmpty { return try decode(ManifestFrame.self, line) }
        }
        return nil
    }

    /// Every frame of the manifest at `url`.
    public static func frames(_ url: URL) throws -> [ManifestFrame] {
        let reader = try ManifestReader(url: url)
        var frames: [ManifestFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }
}

extension ManifestFrame {
    /// The start of a manifest line, all `poiar merge` needs of each frame.
    public struct Head: Decodable, Sendable, Equatable {
        public var frame: Int
        public var time: Double
    }
}
