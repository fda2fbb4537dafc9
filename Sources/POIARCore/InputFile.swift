import Foundation

/// The one check of a file poiar reads whole, or more than once (its format told from its
/// first bytes, then read from the start): it must be a regular file. A folder, a device or a
/// pipe (`<(zcat …)`, a FIFO) there crashed a reader (Foundation traps on reading a folder),
/// hung (a pipe opened a second time waits for a writer that is gone) or was blamed for
/// content it does not have ("unrecognised format", "header lacks columns", "cannot read").
public enum InputFile {
    /// Throws, in words, when `path` is not a regular file (links followed). `what` names it
    /// ("the camera file"); a missing path is left to the reader's own message.
    public static func checkRegular(_ path: String, what: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw InputError(file: path, "is a folder, not a file: expected \(what)")
        case S_IFIFO:
            throw InputError(file: path, "is a FIFO (named pipe), not a file: \(what) must be a file poiar can read again from its start, which a pipe cannot be; save it to a file first")
        default:
            throw InputError(file: path, "is \(OutputPlan.special(info.st_mode) ?? "not a regular file"), not a file: expected \(what)")
        }
    }
}
