import ArgumentParser
import Foundation

/// Where a benchmark writes its files (`bench-render`, `bench-footage`), and how its PNGs are
/// compressed.
struct BenchOutputArguments: ParsableArguments {
    @OptionGroup var png: PNGArguments

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the files written (created if missing).", valueName: "dir"))
    var out: String

    /// `--out`, created when missing.
    func folder() throws -> URL {
        let dir = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
