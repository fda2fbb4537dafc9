import FolderExtras
import Foundation
import POIARCore

/// Output and batch options of `poiar replay` (docs/batch.md): output scale, video, contact
/// sheet, resuming a killed run, and rendering one shard of the frames.
public struct BatchOptions: Sendable {
    /// Output size factor applied to the camera after it is resolved (stills, `--size`):
    /// the frames, the manifest's camera and every pixel position are at this scale.
    public var scale = 1.0
    /// Encode `video.mp4` in the output folder from the frames as they are drawn (`VideoEncoder`).
    public var video = false
    /// Write each frame's PNG file (`--no-frames`: false, the frames go to the video only).
    public var writesFrames = true
    /// Write `contact-sheet.png`: thumbnails of frames 1, 1 + N, 1 + 2N, ….
    public var contactSheetEvery: Int?
    /// Skip frames that an earlier run with the same settings completed (the render journal).
    public var resume = false
    /// Render only this shard's frames and write `frames.shard-I-of-N.jsonl` instead of
    /// `frames.jsonl` (`poiar merge` assembles the shards).
    public var shard: ShardSpec?
    /// Write `report.html` once the frames are drawn (`--report`; the CLI writes it).
    public var report = false

    public init() {}

    /// The files of fixed names asked for in the output folder besides the frames and the
    /// manifest, with the options asking for them: `replay` and `merge` give them to
    /// `OutputPlan`, so that one of them a folder, a device or read-only stops the run before
    /// any work, not after every frame is drawn.
    public var extraFiles: [(name: String, option: String)] {
        var files: [(name: String, option: String)] = []
        if video { files.append((VideoEncoder.fileName, "--video")) }
        if contactSheetEvery != nil { files.append((ContactSheetWriter.fileName, "--contact-sheet")) }
        if report { files.append((BatchOptions.reportFileName, "--report")) }
        return files
    }

    /// `ReplayReport.fileName` (the Report module is the CLI's, not Replay's).
    public static let reportFileName = "report.html"

    /// The largest `--scale`.
    public static let maxScale = 8.0

    /// `camera` scaled by `scale` (sizes rounded to whole pixels, at least 1).
    public func scaled(_ camera: CameraIntrinsics) -> CameraIntrinsics {
        guard scale != 1 else { return camera }
        let w = max(1, Int((Double(camera.width) * scale).rounded()))
        let h = max(1, Int((Double(camera.height) * scale).rounded()))
        return camera.scaled(toWidth: w, height: h)
    }
}

/// `--shard I/N`: shard I (0-based, 0 ≤ I < N) of N. Frame k (1-based) belongs to shard
/// (k − 1) mod N: round robin, so each shard gets every part of the log and they finish
/// together.
public struct ShardSpec: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index; self.count = count
    }

    /// Parses "I/N".
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let i = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        self.init(index: i, count: n)
    }

    /// Whether frame `frame` (1-based) is this shard's.
    public func owns(frame: Int) -> Bool { (frame - 1) % count == index }

    /// How many of `total` frames are this shard's.
    public func frameCount(of total: Int) -> Int {
        total > index ? (total - index - 1) / count + 1 : 0
    }

    public var description: String { "\(index)/\(count)" }

    /// The shard's part of the manifest: `frames.shard-I-of-N.jsonl`.
    public var manifestName: String { "frames.shard-\(index)-of-\(count).jsonl" }
    /// The shard's render journal.
    var journalName: String { RenderJournal.fileName + "-\(index)-of-\(count)" }

    /// The shard a manifest file name belongs to, or nil.
    public static func fromManifestName(_ name: String) -> ShardSpec? {
        guard name.hasPrefix("frames.shard-"), name.hasSuffix(".jsonl") else { return nil }
        let middle = name.dropFirst("frames.shard-".count).dropLast(".jsonl".count)
        let parts = middle.components(separatedBy: "-of-")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]),
              String(i) == parts[0], String(n) == parts[1] else { return nil }
        return ShardSpec(index: i, count: n)
    }
}

extension ReplaySummary {
    /// The closing line of `poiar replay`: "wrote 446 frames and frames.jsonl to DIR in 9.81 s"
    /// ("wrote video.mp4 (446 frames) and frames.jsonl …" with `--no-frames`).
    public var report: String {
        let own = rendered + skipped
        guard pngFrames else {
            return "wrote \(VideoEncoder.fileName) (\(rendered) frames) and \(manifestName) to \(outputDir.path) in \(String(format: "%.2f", seconds)) s"
        }
        var what: String
        if own == frames {
            what = "\(rendered) frames" + (skipped > 0 ? " (\(skipped) already complete, kept)" : "")
        } else if let shard {
            // A shard's own share first, then the run's: "10 of shard 1/2's 20 frames (of the run's 40; …)".
            what = (skipped > 0 ? "\(rendered) of shard \(shard)'s \(own) frames" : "shard \(shard)'s \(own) frames")
                + " (of the run's \(frames)" + (skipped > 0 ? "; \(skipped) already complete, kept)" : ")")
        } else {
            what = "\(rendered) of \(frames) frames" + (skipped > 0 ? " (\(skipped) already complete, kept)" : "")
        }
        return "wrote \(what) and \(manifestName) to \(outputDir.path) in \(String(format: "%.2f", seconds)) s"
    }
}
