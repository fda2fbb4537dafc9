import FolderExtras
import Foundation
import Maps
import POIARCore
import Recordings
import SensorLog

extension ReplayOptions {
    /// Whether a replay writes a file of this name in its output folder: frames, manifests
    /// (a shard's too), the map, the report, the video, the contact sheet, the render journal.
    public static func writesInOutputFolder(_ name: String) -> Bool {
        (name.hasPrefix("frame_") && name.hasSuffix(".png")) || (name.hasPrefix("frames.") && name.hasSuffix(".jsonl"))
            || name.hasPrefix(RenderJournal.fileName)
            || [TrackMap.fileName, BatchOptions.reportFileName, VideoEncoder.fileName, ContactSheetWriter.fileName].contains(name)
    }

    /// The outputs of a replay of a recording with `metadata` in `logFolder`, and every file
    /// it reads that is known before fusion (the stills are added once the frames are known):
    /// checked by `OutputPlan` before any work.
    func outputPlan(metadata: LogMetadata, logFolder: URL) -> OutputPlan {
        var plan = OutputPlan()
        let folderOption = outputDir == nil ? "the output folder" : "--out"
        var files = [(name: batch.shard?.manifestName ?? "frames.jsonl", option: folderOption)]
        if overlay.map { files.append((TrackMap.fileName, "--map")) }
        files += batch.extraFiles
        plan.writesFolder(resolvedOutputDir.path, option: folderOption, files: files, names: ReplayOptions.writesInOutputFolder)
        if let mcap { plan.writes(mcap.path, option: "--mcap") }
        plan.reads(logPath, as: "the recording")
        let logLine = { (key: String) in
            metadata[key].flatMap { try? LogFolderPath.resolve($0, key: key, logFolder: logFolder, logPath: logPath).path }
        }
        plan.reads(poiSource ?? logLine("pois"), as: "the POI source")
        plan.reads(buildings, as: "the building source")
        plan.reads(camera.cameraFile ?? logLine("camera"), as: "the camera file")
        plan.reads(footage.path ?? logLine(LogMetadata.footageKey), as: "the footage")
        plan.reads(truthPath, as: "the truth")
        plan.reads(fontPath, as: "the font")
        plan.reads(boldFontPath, as: "the bold font")
        return plan
    }
}
