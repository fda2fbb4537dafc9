import ArgumentParser
import Benchmarks
import Foundation
import Replay

/// `poiar bench-render`: per-frame cost over a still against the bare codecs (benchmarks/render.sh).
struct BenchRenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-render",
        abstract: "Benchmark: a frame over a still (decode, draw labels, encode PNG) against bare decode + encode.",
        discussion: "Writes bench-frame.png, bench-floor.png and labels.json (the cards, for a reference implementation) to --out. See docs/rendering-performance.md.")

    @Option(help: "The camera still (JPEG or PNG).")
    var still: String

    @Option(parsing: .unconditional, help: "Labels drawn over it.")
    var labels: Int = 20

    @Option(parsing: .unconditional, help: "Iterations; medians are reported.")
    var iterations: Int = 30

    @Option(name: .customLong("png-level"), parsing: .unconditional, help: "PNG zlib compression level, 0–9.")
    var pngLevel: Int = 6

    @Option(help: "Folder for the output files.")
    var out: String

    func validate() throws {
        if labels < 0 || labels > 200 { throw ValidationError("--labels: expected 0…200, got \(labels)") }
        if iterations < 1 { throw ValidationError("--iterations: expected ≥ 1, got \(iterations)") }
        if !(0...9).contains(pngLevel) { throw ValidationError("--png-level: expected 0…9, got \(pngLevel)") }
    }

    func run() throws {
        try reportingErrors {
            let dir = URL(fileURLWithPath: out)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let result = try RenderBenchmark.run(still: URL(fileURLWithPath: still), labels: labels, iterations: iterations,
                                                 level: pngLevel, outDir: dir)
            print(result.report)
        }
    }
}
