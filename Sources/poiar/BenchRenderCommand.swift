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

    @Option(help: ArgumentHelp("The camera still (JPEG or PNG).", valueName: "image"))
    var still: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Labels drawn over it, 0…200.", valueName: "n"))
    var labels: Checked<BenchLabels> = 20

    @Option(parsing: .unconditional, help: ArgumentHelp("Iterations; medians are reported.", valueName: "n"))
    var iterations: Checked<PositiveCount> = 30

    @OptionGroup var output: BenchOutputArguments

    func run() throws {
        try reportingErrors {
            print(try RenderBenchmark.run(still: URL(fileURLWithPath: still), labels: labels.value, iterations: iterations.value,
                                          level: output.png.level,
                                          outDir: try output.folder(files: RenderBenchmark.fileNames, names: { _ in false }, reading: still, as: "the still")).report)
        }
    }
}
