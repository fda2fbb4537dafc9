import Foundation

/// How often each source file was opened by this process (the SQLite-header look, a reader's
/// stream, a whole-file mapping), by path as given. A POI source is opened again and again only
/// by mistake — an OSM extract takes seconds to parse — so tests assert how often a run read one.
public enum SourceFileReads {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var counts: [String: Int] = [:]

    /// How often `path` was opened so far.
    public static func count(_ path: String) -> Int {
        lock.withLock { counts[path, default: 0] }
    }

    static func record(_ path: String) {
        lock.withLock { counts[path, default: 0] += 1 }
    }
}
