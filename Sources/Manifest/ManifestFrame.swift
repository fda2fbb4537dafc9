import POIARCore
import Projection

/// One line of `frames.jsonl`, the frame manifest (docs/formats.md, "Frame manifest"): what a
/// frame showed, as written (`jsonLine`, ManifestWriting.swift) and read back (`Decodable`,
/// through `ManifestReader`) by the report, `poiar merge` and the tests.
///
/// Keys absent from a line are nil; a replay writes `still`, the annotations' `alt`, `anchor_x`,
/// `anchor_y` and `box`, and the pose's angles always (null when unknown).
public struct ManifestFrame: Decodable, Sendable, Equatable {
    /// 1-based frame number.
    public var frame: Int
    /// Log time, seconds.
    public var time: Double
    /// The frame's image file name, beside the manifest.
    public var image: String
    /// The still it is drawn over, as the log names it (nil: none, or footage from a video).
    public var still: String?
    /// The footage video's file name, its frame number (from 1) and the frame's time on the
    /// video's own clock (stills: `footageTime` only).
    public var footage: String?
    public var footageFrame: Int?
    public var footageTime: Double?
    public var location: Location
    public var pose: Attitude
    /// "map" when the frame is drawn as the flat-phone map; nil for the camera view.
    public var view: String?
    public var camera: Camera
    /// The POIs in range, nearest first, in view or not.
    public var annotations: [Annotation]
    /// The frame's cluster cards (nil when it has none: the key is then left out).
    public var clusters: [Cluster]?

    public var isMapView: Bool { view == "map" }

    public struct Location: Decodable, Sendable, Equatable {
        public var lat: Double, lon: Double
        /// Above the WGS84 ellipsoid, metres.
        public var alt: Double?
        /// Horizontal accuracy, metres: the GPS fixes' stated one (interpolated).
        public var accuracy: Double?
        /// The radius that holds the position's error 68 % of the time, metres, when the
        /// position is the smoothed track's (docs/position.md); nil for a raw or fixed one.
        public var sigmaM: Double?
        /// The raw GPS fix at the frame's time (interpolated), beside the smoothed position.
        public var gps: Fix?
        public init(lat: Double, lon: Double, alt: Double?, accuracy: Double?, sigmaM: Double? = nil, gps: Fix? = nil) {
            self.lat = lat; self.lon = lon; self.alt = alt; self.accuracy = accuracy; self.sigmaM = sigmaM; self.gps = gps
        }
        enum CodingKeys: String, CodingKey { case lat, lon, alt, accuracy, gps, sigmaM = "sigma_m" }
    }

    /// A raw GPS fix as the manifest lists it.
    public struct Fix: Decodable, Sendable, Equatable {
        public var lat: Double, lon: Double
        public var alt: Double?
        public var accuracy: Double?
        public init(lat: Double, lon: Double, alt: Double?, accuracy: Double?) {
            self.lat = lat; self.lon = lon; self.alt = alt; self.accuracy = accuracy
        }
    }

    /// The device's orientation: the quaternion (w, x, y, z; device to ENU) and its angles, degrees.
    public struct Attitude: Decodable, Sendable, Equatable {
        public var q: [Double]
        public var heading: Double?, pitch: Double?, roll: Double?
        /// Where the user faces (the image's up for how the phone is held).
        public var facing: Double?
        /// The 68 % bound of the heading's error, degrees (nil: not known).
        public var headingSigmaDeg: Double?
        public init(q: [Double], heading: Double?, pitch: Double?, roll: Double?, facing: Double?, headingSigmaDeg: Double? = nil) {
            self.q = q; self.heading = heading; self.pitch = pitch; self.roll = roll; self.facing = facing
            self.headingSigmaDeg = headingSigmaDeg
        }
        enum CodingKeys: String, CodingKey { case q, heading, pitch, roll, facing, headingSigmaDeg = "heading_sigma_deg" }
        public var orientation: Quaternion? { q.count == 4 ? Quaternion(w: q[0], x: q[1], y: q[2], z: q[3]) : nil }
    }

    public struct Camera: Decodable, Sendable, Equatable {
        public var width: Int, height: Int
        public var fx: Double, fy: Double, cx: Double, cy: Double
        public var distortion: Distortion?
        public init(_ c: CameraIntrinsics) {
            width = c.width; height = c.height; fx = c.fx; fy = c.fy; cx = c.cx; cy = c.cy
            if let d = c.distortion, !d.isZero {
                distortion = d.model == .fisheye
                    ? Distortion(model: d.model.rawValue, k1: d.k1, k2: d.k2, p1: nil, p2: nil, k3: d.k3, k4: d.k4)
                    : Distortion(model: nil, k1: d.k1, k2: d.k2, p1: d.p1, p2: d.p2, k3: d.k3, k4: nil)
            }
        }
        /// The pinhole part (the report's on-image test needs no lens).
        public var intrinsics: CameraIntrinsics { CameraIntrinsics(width: width, height: height, fx: fx, fy: fy, cx: cx, cy: cy) }
        /// The camera with its lens, as the line was written from (a fisheye's field of view is
        /// its lens's, not its focal length's).
        public var withLens: CameraIntrinsics {
            var camera = intrinsics
            if let d = distortion {
                camera.distortion = LensDistortion(model: d.model.flatMap(LensDistortion.Model.init) ?? .brownConrady, k1: d.k1, k2: d.k2,
                                                   p1: d.p1 ?? 0, p2: d.p2 ?? 0, k3: d.k3, k4: d.k4 ?? 0)
            }
            return camera
        }
    }

    /// Brown–Conrady (k1, k2, p1, p2, k3) or, with `model` "fisheye", k1…k4.
    public struct Distortion: Decodable, Sendable, Equatable {
        public var model: String?
        public var k1: Double, k2: Double
        public var p1: Double?, p2: Double?
        public var k3: Double
        public var k4: Double?
    }

    /// One POI on the frame (contract section 3).
    public struct Annotation: Decodable, Sendable, Equatable {
        public var id: String, name: String, category: String
        public var lat: Double, lon: Double
        public var alt: Double?
        public var distance: Double
        public var bearing: Double
        /// Where the POI projects, before layout (nil: behind the camera).
        public var anchorX: Double?, anchorY: Double?
        /// The card as laid out (nil: none).
        public var box: Box?
        public var stackLevel: Int
        /// Drawn on this frame.
        public var visible: Bool
        /// Behind a building (nil: not checked).
        public var occluded: Bool?
        public var marker: LabelMarker?
        /// The frame's cluster card (index in `clusters`) that shows it.
        public var cluster: Int?
        /// A visible card's opacity while it fades (nil: opaque) and size relative to the normal card (nil: 1).
        public var opacity: Double?
        public var size: Double?
        /// The edge arrow for a POI out of view.
        public var offscreen: Offscreen?

        public var anchor: Point2? { anchorX.flatMap { x in anchorY.map { Point2(x, $0) } } }

        public init(id: String, name: String, category: String, lat: Double, lon: Double, alt: Double?, distance: Double,
                    bearing: Double, anchor: Point2?, box: Box?, stackLevel: Int, visible: Bool, occluded: Bool? = nil,
                    marker: LabelMarker? = nil, cluster: Int? = nil, opacity: Double? = nil, size: Double? = nil,
                    offscreen: Offscreen? = nil) {
            self.id = id; self.name = name; self.category = category; self.lat = lat; self.lon = lon; self.alt = alt
            self.distance = distance; self.bearing = bearing; anchorX = anchor?.x; anchorY = anchor?.y; self.box = box
            self.stackLevel = stackLevel; self.visible = visible; self.occluded = occluded; self.marker = marker
            self.cluster = cluster; self.opacity = opacity; self.size = size; self.offscreen = offscreen
        }

        enum CodingKeys: String, CodingKey {
            case id, name, category, lat, lon, alt, box, visible, occluded, marker, cluster, opacity, size, offscreen
            case distance = "distance_m", bearing = "bearing_deg", anchorX = "anchor_x", anchorY = "anchor_y"
            case stackLevel = "stack_level"
        }
    }

    /// A cluster card: far POIs of one category in one card.
    public struct Cluster: Decodable, Sendable, Equatable {
        public var id: String, name: String, detail: String, category: String
        /// The members' POI ids, nearest first.
        public var members: [String]
        public var nearest: Double, farthest: Double
        public var anchorX: Double, anchorY: Double
        public var box: Box
        public var stackLevel: Int
        public var opacity: Double?
        public var size: Double?

        public init(id: String, name: String, detail: String, category: String, members: [String], nearest: Double,
                    farthest: Double, anchor: Point2, box: Box, stackLevel: Int, opacity: Double?, size: Double?) {
            self.id = id; self.name = name; self.detail = detail; self.category = category; self.members = members
            self.nearest = nearest; self.farthest = farthest; anchorX = anchor.x; anchorY = anchor.y; self.box = box
            self.stackLevel = stackLevel; self.opacity = opacity; self.size = size
        }

        enum CodingKeys: String, CodingKey {
            case id, name, detail, category, members, box, opacity, size
            case nearest = "nearest_m", farthest = "farthest_m", anchorX = "anchor_x", anchorY = "anchor_y"
            case stackLevel = "stack_level"
        }
    }

    /// A box in output pixels.
    public struct Box: Decodable, Sendable, Equatable {
        public var x: Double, y: Double, w: Double, h: Double
        public init(_ r: Rect) { x = r.x; y = r.y; w = r.width; h = r.height }
    }

    /// An edge arrow: its tip and its direction (degrees in image coordinates, 0 right, 90 down).
    public struct Offscreen: Decodable, Sendable, Equatable {
        public var x: Double, y: Double
        public var angle: Double
        /// True when the arrow shows its distance alone (no room for its name clear of the cards).
        public var short: Bool?
        public init(x: Double, y: Double, angle: Double, short: Bool? = nil) {
            self.x = x; self.y = y; self.angle = angle; self.short = short
        }
        enum CodingKeys: String, CodingKey { case x, y, angle = "angle_deg", short }
    }

    public init(frame: Int, time: Double, image: String, still: String?, footage: String? = nil, footageFrame: Int? = nil,
                footageTime: Double? = nil, location: Location, pose: Attitude, view: String?, camera: Camera,
                annotations: [Annotation], clusters: [Cluster]?) {
        self.frame = frame; self.time = time; self.image = image; self.still = still; self.footage = footage
        self.footageFrame = footageFrame; self.footageTime = footageTime; self.location = location; self.pose = pose
        self.view = view; self.camera = camera; self.annotations = annotations; self.clusters = clusters
    }

    enum CodingKeys: String, CodingKey {
        case frame, time, image, still, footage, location, pose, view, camera, annotations, clusters
        case footageFrame = "footage_frame", footageTime = "footage_time_s"
    }
}
