import Foundation
import Frames
import POIARCore
import Rendering

/// `--contact-sheet N`: `contact-sheet.png` in the output folder, thumbnails of frames 1,
/// 1 + N, 1 + 2N, … read back from the frame files (so it is the same after a resumed run or
/// a merge of shards), each captioned with its frame number and time.
public enum ContactSheetWriter {
    public static let fileName = "contact-sheet.png"

    /// The frame numbers on the sheet.
    public static func frames(total: Int, every n: Int) -> [Int] { Array(stride(from: 1, through: total, by: n)) }

    /// Refuses a sheet with more than `ContactSheetLayout.maxThumbnails` thumbnails, before
    /// anything is written.
    public static func check(total: Int, every n: Int) throws {
        let count = frames(total: total, every: n).count
        let limit = ContactSheetLayout.maxThumbnails
        if count > limit {
            throw InputError(file: "contact sheet",
                             "every \(n) of \(total) frames makes \(count) thumbnails, over the limit of \(limit): use --contact-sheet \((total + limit - 1) / limit) or more")
        }
    }

    /// Draws the sheet of `frames` (number and time) from `dir`'s frame files and writes it.
    public static func write(dir: URL, frames: [(index: Int, time: Double)], frameWidth: Int, frameHeight: Int,
                             fontPath: String?, pngCompressionLevel: Int) throws {
        guard !frames.isEmpty else { return }
        let layout = ContactSheetLayout(frameWidth: frameWidth, frameHeight: frameHeight, count: frames.count)
        let sheet = try ContactSheet(layout: layout, fontPath: fontPath)
        for (i, frame) in frames.enumerated() {
            let image = try loadStill(dir.appendingPathComponent(FrameRecord.imageName(index: frame.index)))
            try sheet.add(image, at: i, caption: String(format: "%d · %.1f s", frame.index, frame.time))
        }
        try writePNG(try sheet.image(), to: dir.appendingPathComponent(fileName), compressionLevel: pngCompressionLevel)
    }
}
