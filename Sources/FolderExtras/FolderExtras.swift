import Foundation
import Frames
import Manifest
import POIARCore

/// The contact sheet and the video of an output folder whose frames are all drawn: made from
/// the frame files, the same after one run, a resumed run, a merge of shards or later on a
/// finished folder (`poiar merge --video`). Each file written is said in one line.
public struct FolderExtras {
    /// The folder's frames: how many, the first's and last's times, their size, and the times
    /// of those on the contact sheet.
    public var total: Int
    public var firstTime: Double
    public var lastTime: Double
    public var frameSize: (width: Int, height: Int)?
    public var times: (Int) -> Double

    public init(total: Int, firstTime: Double, lastTime: Double, frameSize: (width: Int, height: Int)?, times: @escaping (Int) -> Double) {
        self.total = total; self.firstTime = firstTime; self.lastTime = lastTime; self.frameSize = frameSize; self.times = times
    }

    /// Writes the contact sheet (a thumbnail every `contactSheetEvery` frames) and the video
    /// asked for into `dir`; returns a line per file written.
    public func write(dir: URL, contactSheetEvery: Int?, video: VideoEncoder?, fontPath: String?, pngCompressionLevel: Int,
                      fps: Double) throws -> [String] {
        var lines: [String] = []
        if let every = contactSheetEvery, let size = frameSize {
            let shown = ContactSheetWriter.frames(total: total, every: every).map { ($0, times($0)) }
            try ContactSheetWriter.write(dir: dir, frames: shown, frameWidth: size.width, frameHeight: size.height,
                                         fontPath: fontPath, pngCompressionLevel: pngCompressionLevel)
            lines.append("wrote \(ContactSheetWriter.fileName): \(shown.count) thumbnails (frames 1, \(1 + every), …) \(FolderExtras.size(dir, ContactSheetWriter.fileName))")
        }
        if let video, total > 0 {
            let rate = VideoEncoder.frameRate(count: total, firstTime: firstTime, lastTime: lastTime, fallback: fps)
            try video.encode(dir: dir, frameCount: total, frameRate: rate)
            lines.append(String(format: "wrote %@: %d frames at %.2f fps, %@ %@", VideoEncoder.fileName, total, rate,
                                video.codec.description, FolderExtras.size(dir, VideoEncoder.fileName)))
        }
        return lines
    }

    /// "(4.3 MB)": a written file's size, for the line that says it was written.
    public static func size(_ dir: URL, _ name: String) -> String {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.size] as? Int) ?? 0
        return bytes >= 1_000_000 ? String(format: "(%.1f MB)", Double(bytes) / 1e6) : String(format: "(%.0f kB)", Double(bytes) / 1e3)
    }

    /// The extras of a finished folder (its `frames.jsonl` complete, every frame drawn), read
    /// from its manifest: `poiar merge` on a folder with nothing to merge. `framesRead`: each
    /// frame's file must be there (the video and the contact sheet are made from them; the map
    /// and the report's checks are their own).
    public static func ofFinishedFolder(_ dir: URL, framesRead: Bool = true) throws -> FolderExtras {
        let url = dir.appendingPathComponent("frames.jsonl")
        let reader = try ManifestReader(url: url)
        var frameTimes: [Double] = []
        var frameSize: (width: Int, height: Int)?
        while let line = try reader.nextLine() {
            let head = try reader.decode(ManifestFrame.Head.self, line)
            guard head.frame == frameTimes.count + 1 else {
                throw InputError(file: url.path, line: reader.lineNumber, field: "frame", "expected frame \(frameTimes.count + 1), found \(head.frame)")
            }
            if frameTimes.isEmpty {
                let camera = try reader.decode(ManifestFrame.self, line).camera
                if camera.width > 0, camera.height > 0 { frameSize = (camera.width, camera.height) }
            }
            if framesRead { try FrameFiles.check(dir: dir, frame: head.frame, image: FrameRecord.imageName(index: head.frame)) }
            frameTimes.append(head.time)
        }
        guard let first = frameTimes.first, let last = frameTimes.last else { throw InputError(file: url.path, "lists no frames") }
        return FolderExtras(total: frameTimes.count, firstTime: first, lastTime: last, frameSize: frameSize) { frameTimes[$0 - 1] }
    }
}
