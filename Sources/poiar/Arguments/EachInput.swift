import ArgumentParser

/// Runs `body` for each of `inputs` in turn. With several, one that fails is said on stderr and
/// the rest go on; the command then fails naming them ("2 of 5 logs failed: a, b"). With one,
/// its error is the command's.
func forEachInput(_ inputs: [String], failed what: String, _ body: (Int, String) throws -> Void) throws {
    var failed: [String] = []
    for (n, input) in inputs.enumerated() {
        do {
            try body(n, input)
        } catch where inputs.count > 1 && !(error is ExitCode) {
            printError("\(error)")
            failed.append(input)
        }
    }
    if !failed.isEmpty {
        printError("\(failed.count) of \(inputs.count) \(what): \(failed.joined(separator: ", "))")
        throw ExitCode(1)
    }
}
