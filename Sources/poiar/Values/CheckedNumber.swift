import ArgumentParser
import POIARCore
import Replay

/// A number option's kind: what it counts or measures and the values it takes. One rule per
/// quantity, so `--radius` of every command is checked the same way.
protocol NumberRule {
    associatedtype Number: RuleNumber
    /// What was expected, e.g. "metres > 0".
    static var expected: String { get }
    static func accepts(_ n: Number) -> Bool
}

/// The numbers a rule can hold: `Int` or `Double`.
protocol RuleNumber: Comparable, Sendable, LosslessStringConvertible {
    init(_ value: Int)
    var helpText: String { get }
}
extension Int: RuleNumber { var helpText: String { String(self) } }
extension Double: RuleNumber { var helpText: String { plainNumber(self) } }

/// A number checked by `Rule` when parsed: `var radius: Checked<Metres> = 1500`.
struct Checked<Rule: NumberRule>: CheckedArgument, ExpressibleByIntegerLiteral, Sendable {
    let value: Rule.Number

    init(checking text: String) throws(RefusedValue) {
        guard let n = Rule.Number(text), Rule.accepts(n) else { throw RefusedValue("expected \(Rule.expected)") }
        value = n
    }
    /// A default the code gives (not checked: the code's own).
    init(_ value: Rule.Number) { self.value = value }
    init(integerLiteral literal: Int) { value = Rule.Number(literal) }
    var defaultValueDescription: String { value.helpText }
}

extension Checked: ExpressibleByFloatLiteral where Rule.Number == Double {
    init(floatLiteral literal: Double) { value = literal }
}

/// A finite quantity > 0 in `unit`: "metres > 0".
protocol PositiveQuantity: NumberRule where Number == Double {
    static var unit: String { get }
}
extension PositiveQuantity {
    static var expected: String { "\(unit) > 0" }
    static func accepts(_ n: Double) -> Bool { n > 0 && n.isFinite }
}

/// A finite quantity ≥ 0 in `unit` (0 usually turns the thing off): "seconds ≥ 0".
protocol NonNegativeQuantity: NumberRule where Number == Double {
    static var unit: String { get }
}
extension NonNegativeQuantity {
    static var expected: String { "\(unit) ≥ 0" }
    static func accepts(_ n: Double) -> Bool { n >= 0 && n.isFinite }
}

// MARK: - Distances and times

/// A distance, metres > 0: search radius, label distance, radar range.
enum Metres: PositiveQuantity { static let unit = "metres" }
/// A distance that may be 0: a query radius, a map's margin.
enum MetresOrNone: NonNegativeQuantity { static let unit = "metres" }
/// A time > 0: between view cones, an HTTP request's wait.
enum Seconds: PositiveQuantity { static let unit = "seconds" }
/// A time that may be 0 (turns the thing off): between progress lines.
enum SecondsOrNone: NonNegativeQuantity { static let unit = "seconds" }
/// A log's length in the simulator: up to a week.
enum LogDuration: NumberRule {
    static let expected = "seconds in (0, 604800] (a week)"
    static func accepts(_ n: Double) -> Bool { n > 0 && n <= 604_800 }
}
/// Frames per second of a replay or a video.
enum FrameRate: NumberRule {
    static let expected = "frames per second in (0, 1000]"
    static func accepts(_ n: Double) -> Bool { n > 0 && n <= 1000 }
}
/// Synthetic frame rows per second of a simulated log (0: none).
enum FrameRateOrNone: NumberRule {
    static let expected = "frames per second in [0, 1000]"
    static func accepts(_ n: Double) -> Bool { n >= 0 && n <= 1000 }
}

// MARK: - Counts

/// How many of something, 0 included (0 usually turns it off).
enum Count: NumberRule {
    static let expected = "a count ≥ 0"
    static func accepts(_ n: Int) -> Bool { n >= 0 }
}
/// How many of something, at least 1: passes, queries, pixels, every Nth frame.
enum PositiveCount: NumberRule {
    static let expected = "a count ≥ 1"
    static func accepts(_ n: Int) -> Bool { n >= 1 }
}
/// Threads rendering or encoding frames.
enum Jobs: NumberRule {
    static let expected = "1…256 jobs"
    static func accepts(_ n: Int) -> Bool { (1...256).contains(n) }
}
/// Labels drawn by `bench-render`.
enum BenchLabels: NumberRule {
    static let expected = "0…200 labels"
    static func accepts(_ n: Int) -> Bool { (0...200).contains(n) }
}
/// PNG (zlib) compression level.
enum PNGLevel: NumberRule {
    static let expected = "a level 0…9"
    static func accepts(_ n: Int) -> Bool { (0...9).contains(n) }
}
/// A map's longer side, pixels.
enum MapSide: NumberRule {
    static let expected = "64…\(ImageLimits.maxSide) pixels"
    static func accepts(_ n: Int) -> Bool { (64...ImageLimits.maxSide).contains(n) }
}

// MARK: - Factors and angles

/// The output size factor of a replay.
enum ScaleFactor: NumberRule {
    static let expected = "a factor in (0, \(plainNumber(BatchOptions.maxScale))]"
    static func accepts(_ n: Double) -> Bool { n > 0 && n <= BatchOptions.maxScale }
}
/// A fraction 0…1: the coverage `evaluate` asks for.
enum Fraction: NumberRule {
    static let expected = "a fraction 0…1"
    static func accepts(_ n: Double) -> Bool { n >= 0 && n <= 1 }
}
/// Terrestrial refraction coefficient.
enum RefractionCoefficient: NumberRule {
    static let expected = "a coefficient in [0, 1)"
    static func accepts(_ n: Double) -> Bool { n >= 0 && n < 1 }
}
/// The camera's height above the ground.
enum EyeHeight: NumberRule {
    static let expected = "metres in [0, 1000]"
    static func accepts(_ n: Double) -> Bool { n >= 0 && n <= 1000 }
}
/// A centred pinhole camera's horizontal field of view.
enum FieldOfView: NumberRule {
    static let expected = "degrees in (0, 180)"
    static func accepts(_ n: Double) -> Bool { n > 0 && n < 180 }
}
/// An angle of the device: heading, pitch, roll.
enum Degrees: NumberRule {
    static let expected = "a finite number of degrees"
    static func accepts(_ n: Double) -> Bool { n.isFinite }
}
/// A sensor's noise, a standard deviation.
enum StandardDeviation: NonNegativeQuantity { static let unit = "a standard deviation" }
/// How much the simulated GPS error varies, a fraction of it.
enum NoiseVariation: NumberRule {
    static let expected = "a fraction 0…0.9"
    static func accepts(_ n: Double) -> Bool { n >= 0 && n <= 0.9 }
}
