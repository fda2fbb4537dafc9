import ArgumentParser
import Foundation
import POIARCore

/// Where a benchmark writes its files (`bench-render`, `bench-footage`), and how its PNGs are
/// compressed.
struct BenchOutputArguments: ParsableArguments {
    @OptionGroup var png: PNGArguments

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the files written (created if missing).", valueName: "dir"))
    var out: String

    /// `--out`, created when missing, once `OutputPlan` has checked it against `input` (`what`
    /// it is): `files` are the names written in it, `names` tells any other name written.
    func folder(files: [String], names: @escaping @Sendable (String) -> Bool, reading input: String, as what: String) throws -> URL {
        var plan = OutputPlan()
        plan.writesFolder(out, option: "--out", files: files.map { ($0, "--out") }) { files.contains($0) || names($0) }
        plan.reads(input, as: what)
        try plan.check()
        let dir = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
