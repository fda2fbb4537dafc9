import POIARCore

/// The walker's timeline: segments one after another, each a motion (stand or walk) with an
/// attitude that the phone turns to, smoothly, over the segment's `transition`.
public struct Timeline: Sendable {
    public struct Segment: Sendable {
        public var motion: Motion
        public var attitude: Attitude
        /// Where it came from, for messages: `timeline[3]`.
        public var field: String
        public init(motion: Motion, attitude: Attitude, field: String) {
            self.motion = motion; self.attitude = attitude; self.field = field
        }
    }

    public enum Motion: Sendable {
        /// Standing still for this many seconds.
        case stand(Double)
        /// Walking along the path to a place on it at a speed, m/s (with 1.5 s start and stop
        /// ramps); or, `vehicle`, driven there (`Trajectory.Walk.vehicle`).
        case walk(to: WalkTarget, speed: Double, vehicle: Bool = false)
    }

    public enum WalkTarget: Sendable {
        /// Metres along the path from its start.
        case distance(Double)
        /// The path's point nearest to this place.
        case point(GeoCoordinate)
        /// The path's end.
        case end
    }

    /// Where the camera looks, heading-wise.
    public enum Look: Sendable {
        /// This many degrees right of the walking direction (the path's direction where the
        /// walker is).
        case ahead(offsetDeg: Double)
        /// A fixed compass heading, degrees from true north.
        case heading(Double)
        /// Toward a place (or the mean direction of several), followed as the walker moves.
        case points([GeoCoordinate])
    }

    /// One term of a head or hand sweep: amplitude·sin(2π·t/period + phase); the phase is
    /// random (from the seed, the same for the same term in every segment) unless given.
    public struct Sweep: Sendable, Equatable {
        public var amplitudeDeg: Double
        public var period: Double
        public var phaseDeg: Double?
        public init(amplitudeDeg: Double, period: Double, phaseDeg: Double? = nil) {
            self.amplitudeDeg = amplitudeDeg; self.period = period; self.phaseDeg = phaseDeg
        }
    }

    public struct Attitude: Sendable {
        public var look: Look = .ahead(offsetDeg: 0)
        public var pitchDeg = 0.0
        public var rollDeg = 0.0
        public var headingSweeps: [Sweep] = []
        public var pitchSweeps: [Sweep] = []
        public var rollSweeps: [Sweep] = []
        /// Seconds the phone takes to move from the previous attitude to this one (smootherstep),
        /// from the segment's start; it may run on into the next segment.
        public var transition = 2.0
        public init() {}
    }

    public var segments: [Segment]
    public init(segments: [Segment]) { self.segments = segments }

    /// At most this many terms per sweep list.
    public static let maxSweepTerms = 8
}
