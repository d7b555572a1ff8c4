import Foundation
import GRDB

/// Compares a vault database's schema with exactly what `SQLiteSchema.createSQL` creates.
///
/// Why exactly: SQLite runs whatever its schema holds. A trigger (`BEFORE DELETE ON entry`
/// copying rows into a table of its own), a view or an extra table or index added by someone
/// with the file would keep deleted ciphertext, or change what a read returns, while every
/// sealed object still authenticates. Such additions are damage, not decoration.
enum SQLiteSchemaAudit {
    /// One row of `sqlite_master`, its SQL with runs of white space collapsed.
    struct Object: Hashable, Comparable {
        let type: String
        let name: String
        let table: String
        let sql: String?

        static func < (a: Object, b: Object) -> Bool { (a.type, a.name) < (b.type, b.name) }

        var label: String { "\(type) '\(name)'" + (table == name ? "" : " on '\(table)'") }
    }

    /// The schema a database of each readable version has, built in memory from `createSQL`.
    static let expected: Result<[Int32: Set<Object>], Error> = Result {
        var schemas: [Int32: Set<Object>] = [:]
        _ = SQLiteProcessSetup.applied  // before this process's first connection, if it is
        for version in SQLiteSchema.readableVersions {
            let queue = try DatabaseQueue()
            schemas[version] = try queue.write { db in
                try db.execute(sql: SQLiteSchema.schemaSQL(version: version))
                return try objects(db)
            }
        }
        return schemas
    }

    /// Findings, one per difference, in words without command-line phrasing; empty when the
    /// schema and the pragmas are exactly diary's.
    static func findings(_ db: Database) throws -> [String] {
        let version = try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let schemas = try expected.get()
        let wanted = schemas[version] ?? schemas[SQLiteSchema.version] ?? []
        let found = try objects(db)
        var findings: [String] = []
        for object in found.subtracting(wanted).sorted() {
            if wanted.contains(where: { $0.type == object.type && $0.name == object.name }) {
                findings.append("\(object.label) differs from diary's schema")
            } else {
                findings.append("unexpected \(object.label) in the database")
            }
        }
        for object in wanted.subtracting(found).sorted()
        where !found.contains(where: { $0.type == object.type && $0.name == object.name }) {
            findings.append("\(object.label) is missing from the database")
        }
        let appID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if appID != SQLiteSchema.applicationID { findings.append("application_id is \(appID), not diary's") }
        if !SQLiteSchema.readableVersions.contains(version) {
            findings.append("user_version is \(version), not \(SQLiteSchema.version)")
        }
        return findings
    }

    private static func objects(_ db: Database) throws -> Set<Object> {
        let rows = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master")
        return Set(
            rows.map { row in
                Object(
                    type: row["type"] ?? "", name: row["name"] ?? "", table: row["tbl_name"] ?? "",
                    sql: (row["sql"] as String?).map(normalised))
            })
    }

    /// SQL with every run of white space made one space, so layout alone is no difference.
    static func normalised(_ sql: String) -> String {
        sql.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
