import Foundation

/// Writes a file so that it appears whole or not at all: the data goes to a hidden temporary
/// file in the same folder (`.NAME.PID.RANDOM.tmp`), which is renamed over the target once
/// complete. Every output of poiar (frames, manifests, videos, MCAP files, POI caches) is
/// written this way, so a reader never sees half a file and a killed run leaves only hidden
/// temporaries.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        makeFolder(for: url)
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

    /// Creates the folder `url` goes into when it is missing, as `replay --out` does: an output
    /// file named in a folder not made yet (`poiar pose LOG -o Output/p.csv` in a fresh clone)
    /// is written, not refused. A folder that cannot be made is left to the write to report.
    public static func makeFolder(for url: URL) {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    }

    /// A temporary name beside `url` (same folder, so the final rename is atomic).
    public static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp")
    }

    /// Renames `tmp` over `url`; when that fails, removes `tmp` and throws `failure` of the
    /// system's reason (default: an `InputError`, "cannot write: REASON").
    public static func replace(_ url: URL, with tmp: URL, failure: ((_ reason: String) -> any Error)? = nil) throws {
        if rename(tmp.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: tmp)
            throw failure?(reason) ?? InputError(file: url.path, "cannot write: \(reason)")
        }
    }
}
