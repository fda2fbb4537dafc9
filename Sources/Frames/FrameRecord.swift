import Foundation
import Manifest
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
    /// Where the device is: the smoothed position when the track is smoothed.
    public var location: GPSFix
    /// The 68 % radius of `location`'s error, m (nil: not estimated).
    public var positionSigma: Double?
    /// The raw GPS fix at the frame's time, beside a smoothed `location`.
    public var gps: GPSFix?
    public var pose: Pose
    /// The 68 % bound of the pose's heading error, degrees (nil: not known).
    public var headingSigma: Double?
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
    /// Edge arrows left out for want of a place clear of the cards and anchors (`FrameLabels`).
    public var arrowsLeftOut = 0

    /// Whether the frame is drawn as a map (the manifest's `"view": "map"`).
    public var isMapView: Bool { mapFraction >= 0.5 }

    /// Where the user faces (`Pose.facingAzimuth`, with the image's up for how the phone is held).
    public var facingAzimuth: Double? { pose.facingAzimuth(imageUp: camera.orientation.imageUpInDevice) }

    public static func imageName(index: Int) -> String { String(format: "frame_%06d.png", index) }

    /// The frame's line in frames.jsonl.
    public var jsonLine: String { manifestFrame.jsonLine }

    /// The frame as the manifest lists it: its values, which the manifest's writer rounds.
    public var manifestFrame: ManifestFrame {
        let q = pose.orientation
        let angles = pose.angles
        return ManifestFrame(
            frame: index, time: time, image: image, still: still,
            footage: footage?.video, footageFrame: footage?.frame, footageTime: footage?.time,
            location: .init(lat: location.coordinate.latitude, lon: location.coordinate.longitude,
                            alt: location.coordinate.altitude,  // above the WGS84 ellipsoid (the log's gps z)
                            accuracy: location.horizontalAccuracy, sigmaM: positionSigma,
                            gps: gps.map { .init(lat: $0.coordinate.latitude, lon: $0.coordinate.longitude,
                                                 alt: $0.coordinate.altitude, accuracy: $0.horizontalAccuracy) }),
            pose: .init(q: [q.w, q.x, q.y, q.z], heading: angles.heading, pitch: angles.pitch, roll: angles.roll, facing: facingAzimuth,
                        headingSigmaDeg: headingSigma),
            view: isMapView ? "map" : nil, camera: ManifestFrame.Camera(camera),
            annotations: annotations.map(\.manifestAnnotation),
            clusters: clusters.isEmpty ? nil : clusters.map(\.manifestCluster))
    }
}

extension FrameAnnotation {
    var manifestAnnotation: ManifestFrame.Annotation {
        // Above the WGS84 ellipsoid: `ele` was made so at import (docs/altitude.md).
        ManifestFrame.Annotation(
            id: poi.id, name: poi.name, category: poi.category, lat: poi.coordinate.latitude, lon: poi.coordinate.longitude,
            alt: poi.coordinate.altitude, distance: distance, bearing: bearing, anchor: anchor, box: box.map(ManifestFrame.Box.init),
            stackLevel: stackLevel, visible: visible, occluded: occluded, marker: marker, cluster: cluster,
            // A fading or scaled card's look, for the cards drawn only.
            opacity: visible && opacity < 1 ? opacity : nil, size: visible && sizeFactor != 1 ? sizeFactor : nil,
            offscreen: offscreen.map { ManifestFrame.Offscreen(x: $0.position.x, y: $0.position.y, angle: $0.angleDeg,
                                                                        short: $0.showsName ? nil : true) })
    }
}

extension ClusterAnnotation {
    var manifestCluster: ManifestFrame.Cluster {
        ManifestFrame.Cluster(id: id, name: name, detail: detail, category: category, members: members, nearest: nearest,
                              farthest: farthest, anchor: anchor, box: ManifestFrame.Box(box), stackLevel: stackLevel,
                              opacity: opacity < 1 ? opacity : nil, size: sizeFactor != 1 ? sizeFactor : nil)
    }
}
