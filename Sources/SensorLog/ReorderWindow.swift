/// The reorder window of `SensorLogReader`: rows of different sensors may come out of time
/// order by up to `span` seconds, so a record is handed on only once a record `span` seconds
/// later has been read (`popReady`), or at the end (`popEarliest`). Records of the same time
/// keep their file order. Rows in time order (nearly all) queue at the back of a FIFO; only
/// rows that arrive out of order go through a heap.
struct ReorderWindow {
    /// Seconds rows may be out of order.
    let span: Double
    private var heap = MinHeap<PendingRecord>()
    private var queue: [PendingRecord] = []
    private var queueHead = 0
    private var lastQueuedTime = -Double.infinity
    private var sequence = 0
    /// The latest time inserted so far.
    private var newestTime = -Double.infinity

    init(span: Double) { self.span = span }

    /// Records held.
    var count: Int { heap.count + queue.count - queueHead }

    mutating func insert(_ record: LogRecord) {
        let t = record.sample.time
        newestTime = Swift.max(newestTime, t)
        let p = PendingRecord(record: record, sequence: sequence)
        if t >= lastQueuedTime { queue.append(p); lastQueuedTime = t } else { heap.insert(p) }
        sequence += 1
    }

    /// The earliest record held: the FIFO's front or the heap's top, by (time, file order).
    var earliest: LogRecord? { earliestPending?.record }

    /// The earliest record, taken out, when no row still to come can be earlier (it is at
    /// least `span` before the newest); else nil.
    mutating func popReady() -> LogRecord? {
        guard let top = earliestPending, top.record.sample.time <= newestTime - span else { return nil }
        return popEarliest()
    }

    /// The earliest record, taken out; nil when none is held.
    mutating func popEarliest() -> LogRecord? {
        if queueHead < queue.count, heap.min.map({ !($0 < queue[queueHead]) }) ?? true {
            let p = queue[queueHead]
            queueHead += 1
            // Cut the front off when it is 4 times what is left: the records left (a window's
            // worth) are moved once per 4 windows read, not once per window.
            if queueHead > 4096 && queueHead > 4 * (queue.count - queueHead) {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            return p.record
        }
        return heap.popMin()?.record
    }

    private var earliestPending: PendingRecord? {
        let q = queueHead < queue.count ? queue[queueHead] : nil
        guard let h = heap.min else { return q }
        guard let q else { return h }
        return h < q ? h : q
    }
}

/// A record waiting in the reorder window; ordered by time, then by file order.
private struct PendingRecord: Comparable {
    var record: LogRecord
    var sequence: Int
    static func < (a: PendingRecord, b: PendingRecord) -> Bool {
        a.record.sample.time != b.record.sample.time ? a.record.sample.time < b.record.sample.time : a.sequence < b.sequence
    }
    static func == (a: PendingRecord, b: PendingRecord) -> Bool { a.sequence == b.sequence }
}
