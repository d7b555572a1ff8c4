import Foundation

/// What the crash test knows about a vault from the lines the killed children printed: every
/// acknowledged (durable) operation, and the one that was in flight when the child died.
struct CrashModel {
    struct State: Equatable {
        var hash: String
        var starred: Bool
        var tags: [String]
    }

    /// An operation the child began but did not acknowledge.
    enum InFlight: Equatable {
        case add(State)
        case update(UUID, hash: String)
        case meta(UUID, starred: Bool, tags: [String])
        case delete(UUID)
        case passphrase(to: String)
        case rotation
    }

    var entries: [UUID: State] = [:]
    /// "A" or "B": the passphrase last acknowledged.
    var passphrase = "A"
    /// The header was seen with two key slots (a killed rotation) and no rotation has been
    /// acknowledged since: the next child finishes it, unless it is killed first.
    var rotationUnfinished = false
    var acknowledged = 0

    /// Applies one run's output; returns the operation left in flight, if any.
    mutating func apply(_ lines: [String]) throws -> InFlight? {
        var inFlight: InFlight?
        for line in lines {
            let f = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            switch f[0] {
            case "START", "READY", "END": continue
            case "ERROR": throw ModelError.child(line)
            case "BEGIN":
                guard inFlight == nil else { throw ModelError.malformed(line) }
                inFlight = try Self.parseBegin(Array(f.dropFirst()), line: line)
                continue
            case "ADD":
                guard f.count == 5, case .add(let state) = inFlight, state.hash == f[2] else {
                    throw ModelError.malformed(line)
                }
                entries[try Self.id(f[1])] = state
            case "UPD":
                guard f.count == 3, inFlight == .update(try Self.id(f[1]), hash: f[2]) else {
                    throw ModelError.malformed(line)
                }
                entries[try Self.id(f[1])]?.hash = f[2]
            case "META":
                let (starred, tags) = (f[2] == "1", Self.tags(f[3]))
                guard f.count == 4, inFlight == .meta(try Self.id(f[1]), starred: starred, tags: tags) else {
                    throw ModelError.malformed(line)
                }
                entries[try Self.id(f[1])]?.starred = starred
                entries[try Self.id(f[1])]?.tags = tags
            case "DEL":
                guard f.count == 2, inFlight == .delete(try Self.id(f[1])) else { throw ModelError.malformed(line) }
                entries[try Self.id(f[1])] = nil
            case "PASS":
                guard f.count == 2, inFlight == .passphrase(to: f[1]) else { throw ModelError.malformed(line) }
                passphrase = f[1]
            case "ROT":
                guard inFlight == .rotation else { throw ModelError.malformed(line) }
                rotationUnfinished = false
            default:
                throw ModelError.malformed(line)
            }
            acknowledged += 1
            inFlight = nil
        }
        return inFlight
    }

    private static func parseBegin(_ f: [String], line: String) throws -> InFlight {
        switch (f.first, f.count) {
        case ("ADD", 5): return .add(State(hash: f[2], starred: f[3] == "1", tags: tags(f[4])))
        case ("UPD", 3): return .update(try id(f[1]), hash: f[2])
        case ("META", 4): return .meta(try id(f[1]), starred: f[2] == "1", tags: tags(f[3]))
        case ("DEL", 2): return .delete(try id(f[1]))
        case ("PASS", 2): return .passphrase(to: f[1])
        case ("ROT", 1): return .rotation
        default: throw ModelError.malformed(line)
        }
    }

    private static func id(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw ModelError.malformed(text) }
        return id
    }

    private static func tags(_ field: String) -> [String] {
        field == "-" ? [] : field.split(separator: ",").map(String.init)
    }

    enum ModelError: Error {
        case child(String)
        case malformed(String)
    }
}
