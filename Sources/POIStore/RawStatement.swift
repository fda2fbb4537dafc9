import Foundation
import GRDB
import GRDBSQLite

/// A prepared SQLite statement used through the C API, for the two hot paths — bulk imports and
/// the radius query's index scan — where GRDB's per-call argument and row boxing cost more than
/// SQLite's own work; and for every read of POI rows, so that a row becomes a `POI` in one
/// place (`POIDatabase.poi(from:)`). Used only inside a GRDB access block on the same connection.
final class RawStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer

    /// SQLite's "copy the bytes now" destructor.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, _ sql: String) throws {
        guard let connection = db.sqliteConnection else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "closed database") }
        self.connection = connection
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        handle = statement
    }

    deinit { sqlite3_finalize(handle) }

    @inline(__always) func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    @inline(__always) func bindNull(_ index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    @inline(__always) func bind(_ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    @inline(__always) func bind(_ index: Int32, _ value: String?) {
        guard var value else { sqlite3_bind_null(handle, index); return }
        value.withUTF8 { bytes in
            _ = sqlite3_bind_text(handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                                  Int32(bytes.count), Self.transient)
        }
    }

    @inline(__always) func bind(_ index: Int32, _ value: Data) {
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), Self.transient)
        }
    }

    /// Binds `values` to the parameters 1, 2, 3… in turn (a row's columns in the statement's
    /// order). Named apart from `bind(_:_:)`: with one name, `bind(1, name)` would read as two
    /// values to bind.
    @inline(__always) func bindRow<each V: RawBindable>(_ values: repeat each V) {
        var index: Int32 = 1
        for value in repeat each values {
            value.bind(to: self, at: index)
            index += 1
        }
    }

    /// Steps once: true when a row is ready, false when done.
    @inline(__always) func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
    }

    /// Runs a statement that returns no rows, then resets it.
    @inline(__always) func run() throws {
        defer { reset() }
        _ = try step()
    }

    /// The row id of the last insert on this statement's connection.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(connection) }

    @inline(__always) func reset() {
        sqlite3_reset(handle)
    }

    @inline(__always) func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    @inline(__always) func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    @inline(__always) func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    @inline(__always) func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}

/// An insert and an update of the same columns, for rows found by their text id: the columns are
/// bound on `statement(existing:)`, then `run` binds the last placeholder (the new row's id, or
/// the existing row's rid) and writes the row.
struct RowUpsert {
    let insert: RawStatement
    let update: RawStatement
    /// The placeholder that holds the id (`insert`) or the rid (`update`): the last.
    let keyIndex: Int32

    func statement(existing: Int64?) -> RawStatement { existing == nil ? insert : update }

    /// Writes the row; returns its rid.
    func run(existing: Int64?, id: String) throws -> Int64 {
        if let existing {
            update.bind(keyIndex, existing)
            try update.run()
            return existing
        }
        insert.bind(keyIndex, id)
        try insert.run()
        return insert.lastInsertedRowID
    }
}

/// A value `RawStatement.bindRow(_:)` takes in a parameter list.
protocol RawBindable {
    func bind(to statement: RawStatement, at index: Int32)
}

extension Int64: RawBindable {
    @inline(__always) func bind(to statement: RawStatement, at index: Int32) { statement.bind(index, self) }
}
extension Double: RawBindable {
    @inline(__always) func bind(to statement: RawStatement, at index: Int32) { statement.bind(index, self) }
}
extension String: RawBindable {
    @inline(__always) func bind(to statement: RawStatement, at index: Int32) { statement.bind(index, self) }
}
extension Data: RawBindable {
    @inline(__always) func bind(to statement: RawStatement, at index: Int32) { statement.bind(index, self) }
}
extension Optional: RawBindable where Wrapped: RawBindable {
    @inline(__always) func bind(to statement: RawStatement, at index: Int32) {
        if let self { self.bind(to: statement, at: index) } else { statement.bindNull(index) }
    }
}
