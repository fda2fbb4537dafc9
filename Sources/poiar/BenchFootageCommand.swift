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

    @Option(parsing: .unconditional, help: "Frames encoded in parallel.")
    var jobs: Int = 1

    @Option(name: .customLong("png-level"), parsing: .unconditional, help: "PNG zlib compression level, 0–9.")
    var pngLevel: Int = 6

    @Option(help: "Folder for the PNGs.")
    var out: String

    func validate() throws {
        if jobs < 1 || jobs > 256 { throw ValidationError("--jobs: expected 1…256, got \(jobs)") }
        if !(0...9).contains(pngLevel) { throw ValidationError("--png-level: expected 0…9, got \(pngLevel)") }
    }

    func run() throws {
        try reportingErrors {
            let dir = URL(fileURLWithPath: out)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let r = try FootageBenchmark.run(video: video, outDir: dir, jobs: jobs, level: pngLevel)
            print(String(format: "bench-footage: %d frames in %.3f s (%.1f frames/s)", r.frames, r.seconds, Double(r.frames) / r.seconds))
        }
    }
}
