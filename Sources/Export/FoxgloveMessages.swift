import Foundation
import POIARCore
import Rendering

/// The JSON messages of poiar's MCAP channels, in Foxglove's schemas (`FoxgloveSchemas`).
/// Pixel positions are in the output image, as in frames.jsonl (origin at the top-left corner
/// of the top-left pixel).
enum FoxgloveMessages {
    /// `{"sec": …, "nsec": …}` of a time in nanoseconds since 1970.
    static func time(_ w: inout JSONWriter, _ key: String, _ nanoseconds: UInt64) {
        w.beginObject(key)
        w.int("sec", Int(nanoseconds / 1_000_000_000))
        w.int("nsec", Int(nanoseconds % 1_000_000_000))
        w.endObject()
    }

    /// The device's pose in the local ENU frame: `position` in metres from `origin` (the first
    /// GPS fix), `orientation` the quaternion from the device frame to ENU (the pose CSV's).
    static func poseInFrame(_ nanoseconds: UInt64, pose: Pose, position: Vector3) -> String {
        var w = JSONWriter()
        w.beginObject()
        time(&w, "timestamp", nanoseconds)
        w.string("frame_id", MCAPTopics.enuFrame)
        w.beginObject("pose")
        w.beginObject("position")
        w.number("x", position.x, decimals: 3); w.number("y", position.y, decimals: 3); w.number("z", position.z, decimals: 3)
        w.endObject()
        let q = pose.orientation
        w.beginObject("orientation")
        w.number("x", q.x, decimals: 9); w.number("y", q.y, decimals: 9); w.number("z", q.z, decimals: 9); w.number("w", q.w, decimals: 9)
        w.endObject()
        w.endObject()
        w.endObject()
        return w.text
    }

    /// A GPS fix. The log gives a horizontal accuracy (a 1-σ radius, m) and no vertical one:
    /// east and north get its square as variance and so does up, marked APPROXIMATED (1); a
    /// fix without accuracy gets a zero covariance marked UNKNOWN (0).
    static func locationFix(_ nanoseconds: UInt64, _ fix: GPSFix) -> String {
        var w = JSONWriter()
        w.beginObject()
        time(&w, "timestamp", nanoseconds)
        w.string("frame_id", MCAPTopics.gpsFrame)
        w.number("latitude", fix.coordinate.latitude)
        w.number("longitude", fix.coordinate.longitude)
        w.number("altitude", fix.coordinate.altitude ?? 0, decimals: 3)
        let variance = fix.horizontalAccuracy.map { $0 * $0 } ?? 0
        w.beginArray("position_covariance")
        for i in 0..<9 { w.number(nil, i % 4 == 0 ? variance : 0, decimals: 4) }
        w.endArray()
        w.int("position_covariance_type", fix.horizontalAccuracy == nil ? 0 : 1)
        w.endObject()
        return w.text
    }

    /// One gyro (rad/s), accel (m/s²) or mag (µT) sample, device frame.
    static func sensorSample(_ nanoseconds: UInt64, sensor: String, _ v: Vector3) -> String {
        var w = JSONWriter()
        w.beginObject()
        time(&w, "timestamp", nanoseconds)
        w.string("sensor", sensor)
        w.number("x", v.x); w.number("y", v.y); w.number("z", v.z)
        w.endObject()
        return w.text
    }

    /// A rendered frame's image file as sent: `format` "png" or "jpeg", data in base64 (JSON
    /// has no bytes).
    static func compressedImage(_ nanoseconds: UInt64, format: String, data: Data) -> String {
        var w = JSONWriter()
        w.beginObject()
        time(&w, "timestamp", nanoseconds)
        w.string("frame_id", MCAPTopics.cameraFrame)
        w.string("format", format)
        w.raw("data", "\"" + data.base64EncodedString() + "\"")
        w.endObject()
        return w.text
    }

    /// What the frame shows of its POIs, as Foxglove draws it over the image: each card's box
    /// (an outline in its category's colour), its leader from the anchor, its name and
    /// distance; a dot at the anchor of every POI in sight (hollow and grey behind a building);
    /// cluster cards' boxes and counts.
    static func imageAnnotations(_ nanoseconds: UInt64, _ frame: ExportedFrame) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.beginArray("circles")
        for dot in frame.dots {
            w.beginObject()
            time(&w, "timestamp", nanoseconds)
            point(&w, "position", dot.anchor)
            w.number("diameter", 8)
            w.number("thickness", 2)
            color(&w, "fill_color", dot.hidden ? nil : CategoryPalette.colour(for: dot.category))
            color(&w, "outline_color", dot.hidden ? RGBA8(r: 0x9E, g: 0x9E, b: 0x9E) : RGBA8(r: 255, g: 255, b: 255))
            w.endObject()
        }
        w.endArray()
        w.beginArray("points")
        for card in frame.cards {
            let colour = CategoryPalette.colour(for: card.category)
            box(&w, nanoseconds, card.box, colour)
            if let anchor = card.leaderFrom {
                let b = card.box
                w.beginObject()
                time(&w, "timestamp", nanoseconds)
                w.int("type", 3)  // LINE_STRIP: the leader
                w.beginArray("points")
                point(&w, nil, anchor)
                point(&w, nil, Point2(min(max(anchor.x, b.x), b.x + b.width), b.y + b.height))
                w.endArray()
                color(&w, "outline_color", colour)
                w.number("thickness", 1.5)
                w.endObject()
            }
        }
        w.endArray()
        w.beginArray("texts")
        for card in frame.cards { text(&w, nanoseconds, card.box, card.text) }
        w.endArray()
        w.endObject()
        return w.text
    }

    private static func box(_ w: inout JSONWriter, _ nanoseconds: UInt64, _ b: Rect, _ colour: RGBA8) {
        w.beginObject()
        time(&w, "timestamp", nanoseconds)
        w.int("type", 2)  // LINE_LOOP
        w.beginArray("points")
        for (x, y) in [(b.x, b.y), (b.x + b.width, b.y), (b.x + b.width, b.y + b.height), (b.x, b.y + b.height)] {
            point(&w, nil, Point2(x, y))
        }
        w.endArray()
        color(&w, "outline_color", colour)
        w.number("thickness", 2)
        w.endObject()
    }

    /// A text above the box (Foxglove places a text by its bottom-left corner).
    private static func text(_ w: inout JSONWriter, _ nanoseconds: UInt64, _ b: Rect, _ text: String) {
        w.beginObject()
        time(&w, "timestamp", nanoseconds)
        point(&w, "position", Point2(b.x, max(14, b.y - 3)))
        w.string("text", text)
        w.number("font_size", 14)
        color(&w, "text_color", RGBA8(r: 0x21, g: 0x21, b: 0x21))
        color(&w, "background_color", RGBA8(r: 255, g: 255, b: 255, a: 200))
        w.endObject()
    }

    /// A `foxglove.Point2`, under `key` (nil: an array element).
    private static func point(_ w: inout JSONWriter, _ key: String?, _ p: Point2) {
        w.beginObject(key)
        w.number("x", p.x, decimals: 3); w.number("y", p.y, decimals: 3)
        w.endObject()
    }

    /// A colour in 0…1 (nil: transparent).
    private static func color(_ w: inout JSONWriter, _ key: String, _ c: RGBA8?) {
        w.beginObject(key)
        let c = c ?? RGBA8(r: 0, g: 0, b: 0, a: 0)
        w.number("r", Double(c.r) / 255, decimals: 4); w.number("g", Double(c.g) / 255, decimals: 4)
        w.number("b", Double(c.b) / 255, decimals: 4); w.number("a", Double(c.a) / 255, decimals: 4)
        w.endObject()
    }
}
