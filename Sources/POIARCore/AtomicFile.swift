import Foundation

/// Writes a file so that it appears whole or not at all: the data goes to a hidden temporary
/// file in the same folder, which is renamed over the target once complete. Here in Core so that
/// every module that writes a finished file (Replay, Report) does it the one way.
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
