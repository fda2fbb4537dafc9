import Foundation
import SensorLog

/// The order in which the log's rows are written. A phone delivers each sensor's samples in
/// batches, some time after the batch's last sample, so a recorded log is in time order within
/// each sensor but out of order across sensors by up to a few tenths of a second.
public struct Delivery: Sendable, Equatable {
    public enum Sensor: String, CaseIterable, Sendable, Comparable {
        case gyro, accel, mag, gps, frame
        /// Order among rows written at the same moment.
        var rank: Int { Sensor.allCases.firstIndex(of: self)! }
        public static func < (a: Sensor, b: Sensor) -> Bool { a.rank < b.rank }
    }

    /// Samples are written in batches of `batch`, `latency` seconds after the batch's last
    /// sample time.
    public struct Batching: Sendable, Equatable {
        public var batch: Int
        public var latency: Double
        public init(batch: Int, latency: Double) { self.batch = batch; self.latency = latency }
    }

    /// Sensors not listed are written as they come (batch 1, latency 0).
    public var batching: [Sensor: Batching]

    public init(batching: [Sensor: Batching]) { self.batching = batching }

    /// Every row in time order (at equal times: gps, accel, mag, gyro, frame).
    public static let inOrder = Delivery(batching: [:])
    /// As a phone app delivers them (the sample walk's numbers): gyro in
    /// batches of 4 written 15 ms after the last, accel 5 (+25 ms), mag 5 (+40 ms), GPS
    /// 0.30 s late, frames 30 ms late.
    public static let phone = Delivery(batching: [
        .gyro: Batching(batch: 4, latency: 0.015), .accel: Batching(batch: 5, latency: 0.025),
        .mag: Batching(batch: 5, latency: 0.040), .gps: Batching(batch: 1, latency: 0.300),
        .frame: Batching(batch: 1, latency: 0.030),
    ])
    public static let names = ["in-order", "phone"]
    public static func named(_ name: String) -> Delivery? {
        switch name {
        case "in-order": return .inOrder
        case "phone": return .phone
        default: return nil
        }
    }
    /// Largest latency accepted; with the batches, rows stay well inside the log reader's
    /// 5 s reorder window.
    public static let maxLatency = 2.0

    public var isInOrder: Bool { batching.values.allSatisfy { $0.batch == 1 && $0.latency == 0 } }

    public var name: String {
        if isInOrder { return "in-order" }
        if self == .phone { return "phone" }
        return Sensor.allCases.compactMap { s in batching[s].map { "\(s.rawValue) \($0.batch)/+\(Int(($0.latency * 1000).rounded())) ms" } }
            .joined(separator: ", ")
    }
}

/// Holds rows until they are due, then writes them in delivery order. Rows must be added in
/// time order (over all sensors); a row is due at its batch's write time, which is never
/// before its own time, so every row whose write time is before the next row's time can go.
struct DeliveryQueue {
    private struct Entry: Comparable {
        var writeMicros: Int64, sensor: Delivery.Sensor, seq: Int, line: String, time: Double
        static func < (a: Entry, b: Entry) -> Bool {
            (a.writeMicros, a.sensor.rank, a.seq) < (b.writeMicros, b.sensor.rank, b.seq)
        }
        static func == (a: Entry, b: Entry) -> Bool { a.writeMicros == b.writeMicros && a.sensor == b.sensor && a.seq == b.seq }
    }
    private var heap = MinHeap<Entry>()
    let delivery: Delivery

    init(delivery: Delivery) { self.delivery = delivery }

    /// The write time of sample `index` of a sensor sampled at t0 + i/rate whose last sample
    /// is `lastIndex`.
    func writeTime(_ sensor: Delivery.Sensor, index: Int, t0: Double, rate: Double, lastIndex: Int) -> Double {
        let b = delivery.batching[sensor] ?? Delivery.Batching(batch: 1, latency: 0)
        let last = min((index / b.batch) * b.batch + b.batch - 1, lastIndex)
        return t0 + Double(last) / rate + b.latency
    }

    /// Writes every held row due before `time`.
    mutating func flush(before time: Double, _ write: (String, Double) throws -> Void) rethrows {
        let limit = Int64((time * 1e6).rounded())
        while let top = heap.min, top.writeMicros < limit {
            let e = heap.popMin()!
            try write(e.line, e.time)
        }
    }

    /// Holds a row (`time`: its sample time).
    mutating func add(_ line: String, time: Double, sensor: Delivery.Sensor, seq: Int, writeTime: Double) {
        heap.insert(Entry(writeMicros: Int64((writeTime * 1e6).rounded()), sensor: sensor, seq: seq, line: line, time: time))
    }

    mutating func flushAll(_ write: (String, Double) throws -> Void) rethrows {
        while let e = heap.popMin() { try write(e.line, e.time) }
    }
}
