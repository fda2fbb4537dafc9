import Foundation

/// Standard output and error as poiar writes them. Foundation's `FileHandle.write(_:)` traps
/// when a write fails (`> /dev/full`, a closed stream: the process died with "Illegal
/// instruction"), and `print` loses what it cannot write without a word (`pois query >
/// /dev/full` exited 0 having printed nothing). Here bytes are written to the descriptors
/// with `write(2)`, and what `print` buffered is flushed and checked at the end; standard
/// error's failures are ignored: there is nowhere left to say them, and the exit status still
/// tells.
public enum StandardStreams {
    /// Whether standard output was closed when poiar started (`>&-`).
    nonisolated(unsafe) private static var outputWasClosed = false

    /// Before anything is opened: a standard stream the parent closed (`2>&-`) would be the
    /// number the next opened file gets, and notices would be written into an output file.
    /// Standard input and error get /dev/null; standard output /dev/full, so that what is
    /// printed to it fails, and says so, instead of vanishing.
    public static func reopenClosed() {
        for (fd, path, flags) in [(Int32(0), "/dev/null", O_RDONLY), (1, "/dev/full", O_WRONLY), (2, "/dev/null", O_WRONLY)]
        where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open(path, flags)
            if opened >= 0 && opened != fd { dup2(opened, fd); close(opened) }
            if fd == 1 { outputWasClosed = true }
        }
    }

    /// Writes `bytes` to standard output; throws when they cannot be written.
    public static func write(_ bytes: UnsafeRawBufferPointer) throws {
        if let code = writeAll(1, bytes) { throw outputError(code) }
    }

    /// Flushes what `print` buffered; throws when any of it could not be written.
    public static func finish() throws {
        if fflush(nil) != 0 { throw outputError(errno) }
    }

    /// Writes `text` to standard error, as it is, at once.
    public static func writeError(_ text: String) {
        var text = text
        _ = text.withUTF8 { writeAll(2, UnsafeRawBufferPointer($0)) }
    }

    /// `bytes` written to `fd` whole (a pipe may take part of them); the errno of a failure.
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += n
        }
        return nil
    }

    private static func outputError(_ code: Int32) -> InputError {
        if outputWasClosed { return InputError(file: "standard output", "is closed (>&-): what poiar prints could not be written") }
        return InputError(file: "standard output", "cannot write (\(String(cString: strerror(code)))): what poiar prints is lost")
    }
}
