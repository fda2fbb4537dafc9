import Synchronization

/// A frame row's still path, as written in the log, held as a handle to a table the process
/// shares. A `SensorSample` then holds no reference and is copied as plain bytes: every row is
/// copied several times on its way (the reorder window, the read-ahead for north, the pass),
/// and one reference-holding case made each of those copies a call. Frame rows are few (a
/// few per second), so the table stays small and its lock is rarely taken.
public struct StillName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    private let id: UInt32

    private struct Table {
        var texts: [String] = []
        var ids: [String: UInt32] = [:]
    }
    private static let table = Mutex(Table())

    public init(_ text: String) {
        id = Self.table.withLock { table in
            if let id = table.ids[text] { return id }
            let id = UInt32(table.texts.count)
            table.texts.append(text)
            table.ids[text] = id
            return id
        }
    }

    public init(stringLiteral text: String) { self.init(text) }

    /// The path as written in the log.
    public var text: String { Self.table.withLock { $0.texts[Int(id)] } }
    public var description: String { text }
}
