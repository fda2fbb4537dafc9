import Foundation
import POIARCore
import Projection

/// One POI on one frame, as the manifest lists it (contract section 3).
public struct FrameAnnotation: Sendable, Equatable {
    public var poi: POI
    public var distance: Double
    public var bearing: Double
    /// Where the POI projects (before layout); nil when behind the camera.
    public var anchor: Point2?
    /// The label as laid out; nil when it has none (off the image, behind, or over the cap).
    public var box: Rect?
    public var stackLevel: Int
    public var visible: Bool
    /// Set for the nearest POIs outside the view: the edge arrow pointing to them.
    public var offscreen: OffscreenIndicator?
    /// The card's second line ("85 m", "85 m · Pohjoisesplanadi 19"), as laid out and drawn.
    public var detail: String
    /// Behind a building as seen from the camera; nil when not checked (no buildings,
    /// `--occlusion off`, or the POI is out of view and not given an arrow).
    public var occluded: Bool?
    /// How the POI is marked when it has no card of its own.
    public var marker: LabelMarker?
    /// The card's opacity (1 opaque; less while it fades in or out).
    public var opacity = 1.0
    /// The card's size relative to the normal card (cards sized by distance).
    public var sizeFactor = 1.0
    /// The frame's cluster card (index in `FrameRecord.clusters`) that shows it.
    public var cluster: Int?

    public init(poi: POI, distance: Double, bearing: Double, anchor: Point2?, box: Rect?, stackLevel: Int,
                visible: Bool, offscreen: OffscreenIndicator? = nil, detail: String? = nil) {
        self.poi = poi; self.distance = distance; self.bearing = bearing; self.anchor = anchor; self.box = box
        self.stackLevel = stackLevel; self.visible = visible; self.offscreen = offscreen
        self.detail = detail ?? formatDistance(distance)
    }
}

/// A cluster card: far POIs of one category gathered into one card ("5 cafes", "300–450 m").
public struct ClusterAnnotation: Sendable, Equatable {
    public var id: String
    public var name: String
    public var detail: String
    public var category: String
    /// The members' POI ids, nearest first.
    public var members: [String]
    public var nearest: Double, farthest: Double
    /// The mean of the members' anchors.
    public var anchor: Point2
    public var box: Rect
    public var stackLevel: Int
    public var opacity: Double
    public var sizeFactor: Double
}

/// Which footage frame a frame is drawn over (the manifest's `footage`, `footage_frame` and
/// `footage_time_s`).
public struct FootageStamp: Sendable, Equatable {
    /// Its time on the footage's own clock, seconds (a video's timeline; stills: since 1970).
    public var time: Double
    /// The video's file name (nil: a still, named by the record's `still`).
    public var video: String?
    /// The video frame's number, from 1 in presentation order.
    public var frame: Int?

    public init(time: Double, video: String? = nil, frame: Int? = nil) {
        self.time = time; self.video = video; self.frame = frame
    }
}

/// One rendered frame: the manifest line and everything needed to draw it.
public struct FrameRecord: Sendable {
    /// 1-based frame number.
    public var index: Int
    public var time: Double
    /// Line of the log's frame row (nil for frames made with --fps).
    public var logLine: Int?
    /// Output image file name (relative to the output folder).
    public var image: String
    /// The still's path as written in the log (relative to the log's folder), or a footage
    /// still's (its folder's name and its file name).
    public var still: String?
    /// The footage frame under this frame, when the frames are the footage's.
    public var footage: FootageStamp?
    public var location: GPSFix
    public var pose: Pose
    public var camera: CameraIntrinsics
    public var annotations: [FrameAnnotation]
    /// The map's share of the frame (`FlatViewSwitch`): 0 the camera view, 1 a map (the phone
    /// points at the ground), between them a cross-fade.
    public var mapFraction = 0.0
    /// The frame's cluster cards.
    public var clusters: [ClusterAnnotation] = []
    /// Sight lines tested against buildings for this frame, and the time they took (for
    /// `--stats`; not in the manifest, which must not depend on timing).
    public var sightLines = 0
    public var occlusionSeconds = 0.0

    /// Whether the frame is drawn as a map (the manifest's `"view": "map"`).
    public var isMapView: Bool { mapFraction >= 0.5 }

    /// Where the user faces (`Pose.facingAzimuth`, with the image's up for how the phone is held).
    public var facingAzimuth: Double? { pose.facingAzimuth(imageUp: camera.orientation.imageUpInDevice) }

    public static func imageName(index: Int) -> String { String(format: "frame_%06d.png", index) }

    /// The frame's line in frames.jsonl.
    public var jsonLine: String {
        var w = JSONWriter()
        w.beginObject()
        w.int("frame", index)
        w.number("time", time, decimals: 6)
        w.string("image", image)
        w.string("still", still)
        if let footage {
            if let video = footage.video { w.string("footage", video) }
            if let frame = footage.frame { w.int("footage_frame", frame) }
            w.number("footage_time_s", footage.time, decimals: 6)
        }
        w.beginObject("location")
        w.number("lat", location.coordinate.latitude)
        w.number("lon", location.coordinate.longitude)
        w.number("alt", location.coordinate.altitude, decimals: 3)  // above the WGS84 ellipsoid (the log's gps z)
        w.number("accuracy", location.horizontalAccuracy, decimals: 3)
        w.endObject()
        let q = pose.orientation
        let angles = pose.angles
        w.beginObject("pose")
        w.beginArray("q")
        for c in [q.w, q.x, q.y, q.z] { w.number(nil, c) }
        w.endArray()
        w.number("heading", angles.heading, decimals: 4)
        w.number("pitch", angles.pitch, decimals: 4)
        w.number("roll", angles.roll, decimals: 4)
        w.number("facing", facingAzimuth, decimals: 4)
        w.endObject()
        if isMapView { w.string("view", "map") }
        w.beginObject("camera")
        w.int("width", camera.width)
        w.int("height", camera.height)
        w.number("fx", camera.fx)
        w.number("fy", camera.fy)
        w.number("cx", camera.cx)
        w.number("cy", camera.cy)
        if let d = camera.distortion, !d.isZero {
            w.beginObject("distortion")
            if d.model == .fisheye {
                w.string("model", d.model.rawValue)
                w.number("k1", d.k1); w.number("k2", d.k2); w.number("k3", d.k3); w.number("k4", d.k4)
            } else {
                w.number("k1", d.k1); w.number("k2", d.k2); w.number("p1", d.p1); w.number("p2", d.p2); w.number("k3", d.k3)
            }
            w.endObject()
        }
        w.endObject()
        w.beginArray("annotations")
        for a in annotations {
            w.beginObject()
            w.string("id", a.poi.id)
            w.string("name", a.poi.name)
            w.string("category", a.poi.category)
            w.number("lat", a.poi.coordinate.latitude)
            w.number("lon", a.poi.coordinate.longitude)
            // Above the WGS84 ellipsoid: `ele` was made so at import (docs/altitude.md).
            w.number("alt", a.poi.coordinate.altitude)
            w.number("distance_m", a.distance, decimals: 3)
            w.number("bearing_deg", a.bearing, decimals: 4)
            w.number("anchor_x", a.anchor?.x, decimals: 3)
            w.number("anchor_y", a.anchor?.y, decimals: 3)
            if let b = a.box { writeBox(&w, b) } else { w.raw("box", "null") }
            w.int("stack_level", a.stackLevel)
            w.bool("visible", a.visible)
            if let o = a.occluded { w.bool("occluded", o) }
            if let m = a.marker { w.string("marker", m.rawValue) }
            if let c = a.cluster { w.int("cluster", c) }
            if a.visible {
                if a.opacity < 1 { w.number("opacity", a.opacity, decimals: 3) }
                if a.sizeFactor != 1 { w.number("size", a.sizeFactor, decimals: 2) }
            }
            if let o = a.offscreen {
                w.beginObject("offscreen")
                w.number("x", o.position.x, decimals: 3); w.number("y", o.position.y, decimals: 3)
                w.number("angle_deg", o.angleDeg, decimals: 3)
                w.endObject()
            }
            w.endObject()
        }
        w.endArray()
        if !clusters.isEmpty {
            w.beginArray("clusters")
            for c in clusters {
                w.beginObject()
                w.string("id", c.id)
                w.string("name", c.name)
                w.string("detail", c.detail)
                w.string("category", c.category)
                w.beginArray("members")
                for m in c.members { w.string(nil, m) }
                w.endArray()
                w.number("nearest_m", c.nearest, decimals: 3)
                w.number("farthest_m", c.farthest, decimals: 3)
                w.number("anchor_x", c.anchor.x, decimals: 3)
                w.number("anchor_y", c.anchor.y, decimals: 3)
                writeBox(&w, c.box)
                w.int("stack_level", c.stackLevel)
                if c.opacity < 1 { w.number("opacity", c.opacity, decimals: 3) }
                if c.sizeFactor != 1 { w.number("size", c.sizeFactor, decimals: 2) }
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
        return w.text
    }
}

private func writeBox(_ w: inout JSONWriter, _ b: Rect) {
    w.beginObject("box")
    w.number("x", b.x, decimals: 3); w.number("y", b.y, decimals: 3)
    w.number("w", b.width, decimals: 3); w.number("h", b.height, decimals: 3)
    w.endObject()
}
