import Foundation
import POIARCore

/// The frame files a finished folder's `frames.jsonl` lists, as the commands that read them
/// back find them (`merge --video`, `--contact-sheet`, `--report`; `poiar report`). A folder
/// written with `--no-frames` has none (its frames are in the video only): said as such, not
/// as a frame lost (`report` wrote a page of missing pictures, exit status 0; `merge` asked to
/// replay again with `--resume`).
public enum FrameFiles {
    /// Throws when frame `frame`'s file `image` is not in `dir` (`merge`: every frame is read).
    public static func check(dir: URL, frame: Int, image: String) throws {
        let url = dir.appendingPathComponent(image)
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        if frame == 1 && hasVideo(dir) { throw noFrameFiles(dir) }
        throw InputError(file: url.path, "frame \(frame) is missing: replay the log again (--resume keeps the frames drawn)")
    }

    /// Throws when none of `images` is in `dir` (`report`, whose page shows a single missing
    /// frame as missing: docs/report.md).
    public static func checkAny(dir: URL, images: [String]) throws {
        guard !images.isEmpty, !images.contains(where: { FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path) }) else { return }
        if hasVideo(dir) { throw noFrameFiles(dir) }
        throw InputError(file: dir.path, "none of the \(images.count) frame files frames.jsonl lists is here: is it the folder the frames were drawn in?")
    }

    private static func hasVideo(_ dir: URL) -> Bool { FileManager.default.fileExists(atPath: dir.appendingPathComponent("video.mp4").path) }

    private static func noFrameFiles(_ dir: URL) -> InputError {
        InputError(file: dir.path, "has no frame files, only video.mp4 (a replay with --no-frames?): the report, the contact sheet and the video are made from the frame files; replay without --no-frames")
    }
}
