import ArgumentParser
import Evaluation
import Foundation
import Fusion
import PhoneImport
import Recordings
import Replay

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score poses against a truth: heading, inclination and total RMSE in degrees (as pose_eval.py score).",
        discussion: "Give --poses P (a pose CSV), or LOG to fuse it first. Exit status 3 when fewer than --min-coverage of the truth's rows have a pose.")

    @Argument(help: "A sensor log (or phone recording) to fuse, instead of --poses.")
    var log: String?

    @Option(help: "The truth: time,qw,qx,qy,qz[,movement] (plain or .gz), or a phone's own orientation: a Sensor Logger export (folder or zip) or its Orientation.csv.")
    var truth: String

    @Option(help: "A pose CSV (time,qw,qx,qy,qz,…), e.g. from `poiar pose`.")
    var poses: String?

    @OptionGroup(title: "When fusing LOG") var fusion: FusionArguments

    @Flag(name: .customLong("align-heading"), help: "Remove a constant heading offset (estimated robustly, reported) before scoring: true vs magnetic north, a mounting offset.")
    var alignHeading = false

    @Flag(help: "Print one JSON object instead of the text report.")
    var json = false

    @Option(name: .customLong("min-coverage"), parsing: .unconditional, help: "Exit status 3 when fewer than this fraction of the truth's scored rows have a pose.")
    var minCoverage: Double = 0.99

    func validate() throws {
        try fusion.validate()
        if (log == nil) == (poses == nil) { throw ValidationError("give LOG (to fuse) or --poses FILE, one of them") }
        if !(minCoverage >= 0 && minCoverage <= 1) { throw ValidationError("--min-coverage: expected 0…1, got \(minCoverage)") }
    }

    func run() throws {
        var coverageShort = false
        try reportingErrors {
            let truthSeries = try readTruth(truth, log: log, magnetic: fusion.magnetic)
            let estimates: PoseSeries
            if let poses {
                estimates = try PoseSeries.read(path: poses, movementColumn: false)
            } else {
                let recording = try Recording(path: log!)
                let north = try TrueNorth.reference(for: recording, try fusion.northChoice())
                printNotice("north: \(north.explanation)")
                var pass = FusionPass()
                pass.north = north
                pass.causal = fusion.causal
                pass.poseSource = fusion.source
                pass.onNotice = { printNotice($0) }
                var series = PoseSeries()
                pass.onPose = { t, pose in series.append(time: t, pose.orientation) }
                _ = try pass.run(recording)
                estimates = series
            }
            let score = PoseScore.score(truth: truthSeries, poses: estimates, alignHeading: alignHeading)
            print(json ? score.json : score.report)
            if score.coverage < minCoverage {
                printNotice("only \(score.matched) of \(score.movementSamples) scored truth rows have a pose within half a truth sample period")
                coverageShort = true
            }
        }
        if coverageShort { throw ExitCode(3) }
    }
}
