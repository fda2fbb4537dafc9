import Foundation

/// Writes a file so that it appears whole or not at all: the data goes to a hidden temporary
/// file in the same folder (`.NAME.PID.RANDOM.tmp`), which is renamed over the target once
/// complete. Every output of poiar (frames, manifests, videos, MCAP files, POI caches) is
/// written this way, so a reader never sees half a file. A run stopped by Ctrl-C or SIGTERM
/// removes its temporaries (`removeOwnTemporaries`, from the command line's signal handler);
/// one killed outright leaves them, and the next run writing the same output removes those of
/// processes no longer running (`removeStaleTemporaries`).
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
        let folder = url.deletingLastPathComponent()
        foldersWritten.insert(folder.path)
        return folder.appendingPathComponent(".\(url.lastPathComponent).\(pid).\(UInt32.random(in: 0...UInt32.max)).tmp")
    }

    /// Renames `tmp` over `url`; when that fails, removes `tmp` and throws `failure` of the
    /// system's reason (default: an `InputError`, "cannot write: REASON"). A device, FIFO or
    /// socket at `url` is never replaced (`OutputPlan` refuses it first; this is the last word).
    public static func replace(_ url: URL, with tmp: URL, failure: ((_ reason: String) -> any Error)? = nil) throws {
        var info = stat()
        if lstat(url.path, &info) == 0, let kind = OutputPlan.special(info.st_mode) {
            try? FileManager.default.removeItem(at: tmp)
            throw failure?("it is \(kind)") ?? InputError(file: url.path, "is \(kind), not a regular file: it is not replaced")
        }
        if rename(tmp.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: tmp)
            throw failure?(reason) ?? InputError(file: url.path, "cannot write: \(reason)")
        }
    }

    private static let pid = ProcessInfo.processInfo.processIdentifier
    private static let foldersWritten = LockedSet()

    /// Removes this process's temporaries in every folder it wrote in (on Ctrl-C, SIGTERM).
    public static func removeOwnTemporaries() {
        for folder in foldersWritten.values {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where temporaryOwner(name) == pid {
                unlink(folder + "/" + name)
            }
        }
    }

    /// Removes the temporaries of `url` left by processes that are no longer running (killed
    /// with SIGKILL, or the machine stopped); a running process's are left alone.
    public static func removeStaleTemporaries(of url: URL) {
        let folder = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + "."
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) {
            guard let owner = temporaryOwner(String(name.dropFirst(prefix.count - 1))), owner != pid else { continue }
            if kill(owner, 0) != 0 && errno == ESRCH { unlink(folder + "/" + name) }
        }
    }

    /// The PID in a temporary's name (`….PID.RANDOM.tmp`), or nil when `name` is not one.
    static func temporaryOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, UInt32(parts[parts.count - 1]) != nil else { return nil }
        return pid_t(parts[parts.count - 2])
    }
}

/// The folders temporaries were made in, shared by every writing thread.
private final class LockedSet: @unchecked Sendable {
    private var set = Set<String>()
    private let lock = NSLock()
    func insert(_ value: String) { lock.lock(); set.insert(value); lock.unlock() }
    var values: [String] { lock.lock(); defer { lock.unlock() }; return Array(set) }
}
