import Foundation
import POIARCore

extension PoseSeries {
    /// The one check of a truth before it scores anything (`evaluate`, `report --truth`,
    /// `replay --report --truth`): it must have rows, a usable quaternion in one of them, times
    /// that advance, and times that meet `span` (the poses' or the frames' times, `spanName`).
    /// Without it a header-only file, zero or NaN quaternions, one time for all rows or another
    /// clock gave empty scores and exit status 0. Times stepping back are refused where they
    /// are read (`read`), with their line.
    public func checkUsable(file: String, against span: ClosedRange<Double>?, spanName: String) throws {
        guard !times.isEmpty else { throw InputError(file: file, "no rows (a header only): nothing to score against") }
        let usable = zip(times, quaternions).filter { $0.1 != nil }.map(\.0)
        guard let first = usable.first, let last = usable.last else {
            throw InputError(file: file, "none of its \(times.count) rows has a usable quaternion (all zero, empty or not numbers): nothing to score against")
        }
        guard times.count == 1 || times.first! < times.last! else {
            throw InputError(file: file, "all \(times.count) rows have the same time (\(times[0]) s): a truth's rows need their own times")
        }
        guard let span else { return }
        let half = times.count > 1 ? 0.5 * (times.last! - times.first!) / Double(times.count - 1) : 0
        guard last + half >= span.lowerBound, first - half <= span.upperBound else {
            throw InputError(file: file, String(format: "its times (%.3f … %.3f s) do not meet %@ (%.3f … %.3f s): is it on another clock?",
                                                first, last, spanName, span.lowerBound, span.upperBound))
        }
    }

    /// The first and last time, when there are any.
    public var span: ClosedRange<Double>? {
        guard let first = times.min(), let last = times.max() else { return nil }
        return first...last
    }
}
