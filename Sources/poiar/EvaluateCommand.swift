import ArgumentParser
import Evaluation
import Foundation
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

    @Option(help: ArgumentHelp("The truth: time,qw,qx,qy,qz[,movement] (plain or .gz), or a phone's own orientation: a Sensor Logger export (folder or zip) or its Orientation.csv.", valueName: "file"))
    var truth: String

    @Option(help: ArgumentHelp("A pose CSV (time,qw,qx,qy,qz,…), e.g. from `poiar pose`. (default: none: LOG is fused)", valueName: "file"))
    var poses: String?

    @OptionGroup(title: "When fusing LOG") var fusion: FusionArguments

    @Flag(name: .customLong("align-heading"), help: "Remove a constant heading offset (estimated robustly, reported) before scoring: true vs magnetic north, a mounting offset.")
    var alignHeading = false

    @Flag(help: "Print one JSON object instead of the text report.")
    var json = false

    @Option(name: .customLong("min-coverage"), parsing: .unconditional, help: ArgumentHelp("Exit status 3 when fewer than this fraction of the truth's scored rows have a pose.", valueName: "f"))
    var minCoverage: Checked<Fraction> = 0.99

    func validate() throws {
        if (log == nil) == (poses == nil) { throw ValidationError("give LOG (to fuse) or --poses FILE, one of them") }
    }

    func run() throws {
        var coverageShort = false
        try reportingErrors {
            // LOG's north is resolved first: the truth's note advises --magnetic only when the
            // poses are fused to true north (not when --magnetic is given, nor when the log has no
            // position to turn magnetic north to true north with).
            let fused = try log.map { log in
                let recording = try Recording(path: log)
                let north = try TrueNorth.reference(for: recording, fusion.northChoice)
                printNotice("north: \(north.explanation)")
                return (recording: recording, north: north)
            }
            let truthSeries = try readTruth(truth, log: log, trueNorthAdvice: fused?.north.isTrueNorth == true ? "give --magnetic or --align-heading" : nil)
            let poses = try estimates(fused)
            try truthSeries.checkUsable(file: truth, against: poses.span, spanName: "the poses'")
            let score = PoseScore.score(truth: truthSeries, poses: poses, alignHeading: alignHeading)
            print(json ? score.json : score.report)
            if score.coverage < minCoverage.value {
                printNotice("only \(score.matched) of \(score.movementSamples) scored truth rows have a pose within half a truth sample period")
                coverageShort = true
            }
        }
        if coverageShort { throw ExitCode(3) }
    }

    /// The poses scored: `--poses`, or LOG (opened, its north resolved) fused.
    func estimates(_ log: (recording: Recording, north: NorthReference)?) throws -> PoseSeries {
        guard let log else { return try PoseSeries.read(path: poses!, movementColumn: false) }
        return try PoseSeries.fused(log.recording, north: log.north, causal: fusion.causal, poseSource: fusion.source, notice: printNotice)
    }
}
