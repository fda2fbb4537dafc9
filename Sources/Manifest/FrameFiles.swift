import Foundation
import POIARCore

/// The frame files a finished folder's `frames.jsonl` lists, as the commands that read them
/// back find them (`merge --video`, `--contact-sheet`, `--report`; `poiar report`).
public enum FrameFiles {
    /// Throws when frame `frame`'s file `image` is not in `dir`. A folder written with
    /// `--no-frames` has none (its frames are in the video only): said as such, not as a
    /// frame lost (`report` wrote a page of missing pictures, exit status 0; `merge` asked
    /// to replay again with `--resume`).
    public static func check(dir: URL, frame: Int, image: String) throws {
        let url = dir.appendingPathComponent(image)
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        if frame == 1 && FileManager.default.fileExists(atPath: dir.appendingPathComponent("video.mp4").path) {
            throw InputError(file: dir.path, "has no frame files, only video.mp4 (a replay with --no-frames?): the report, the contact sheet and the video are made from the frame files; replay without --no-frames")
        }
        throw InputError(file: url.path, "frame \(frame) is missing: replay the log again (--resume keeps the frames drawn)")
    }
}
