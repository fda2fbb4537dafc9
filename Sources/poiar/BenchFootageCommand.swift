import ArgumentParser
import Benchmarks
import Foundation
import Replay

/// `poiar bench-footage`: a video's frames decoded and written as PNGs, unchanged — the floor
/// of a replay over footage (benchmarks/footage.sh).
struct BenchFootageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-footage",
        abstract: "Benchmark: every frame of a video decoded and encoded as PNG, without labels (the floor of replay over footage).",
        discussion: "Writes floor_NNNNNN.png to --out and prints the frames and seconds. See docs/footage.md.")

    @Argument(help: "The video.")
    var video: String

    @Option(name: .shortAndLong, parsing: .unconditional, help: ArgumentHelp("Frames encoded in parallel, 1…256.", valueName: "n"))
    var jobs: Checked<Jobs> = 1

    @OptionGroup var output: BenchOutputArguments

    func run() throws {
        try reportingErrors {
            let dir = try output.folder(files: [], names: FootageBenchmark.writes, reading: video, as: "the video")
            let r = try FootageBenchmark.run(video: video, outDir: dir, jobs: jobs.value, level: output.png.level)
            print(String(format: "bench-footage: %d frames in %.3f s (%.1f frames/s)", r.frames, r.seconds, Double(r.frames) / r.seconds))
        }
    }
}
