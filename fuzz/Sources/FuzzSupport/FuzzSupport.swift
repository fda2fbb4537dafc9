import CFuzzer
import Foundation
import POIARCore

/// What every fuzz target does with one input: run the reader, accept a result or an
/// `InputError` with a one-line message, and stop the process on anything else, so libFuzzer
/// records the input (a crash, a trap or a sanitizer report stops it by itself).
public enum Fuzz {
    /// The input's bytes (libFuzzer may pass a null pointer for an empty input).
    public static func data(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let start, count > 0 else { return Data() }
        return Data(bytes: start, count: count)
    }

    /// Runs libFuzzer with the process's arguments and `test` as the target; returns its exit status.
    public static func run(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        return LLVMFuzzerRunDriver(&argc, &argv, test)
    }

    /// Runs `body`; an `InputError` is a correct answer when its message is one line that
    /// names the file. Any other error is a finding.
    public static func expectResultOrInputError(file: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as InputError {
            let line = error.description
            if line.contains(where: \.isNewline) || !line.hasPrefix(file) {
                fatalError("InputError is not one line naming \(file): \(line)")
            }
        } catch {
            fatalError("not an InputError: \(type(of: error)): \(error)")
        }
    }

    /// A per-process scratch file holding `data` (readers that take a path), removed by the
    /// caller's next write. The name ends in `suffix` so readers that look at it see a usual one.
    public static func scratchFile(_ data: Data, suffix: String) -> String {
        let path = NSTemporaryDirectory() + "poiar-fuzz-\(getpid())\(suffix)"
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            fatalError("cannot write the scratch file \(path)")
        }
        return path
    }
}
