import DiaryCrypto
import DiaryStore
import Foundation

/// What a sealed object is. Part of its associated data, so one kind can't pose as another.
package enum ObjectKind: UInt8 {
    case entry = 1
    /// The index root (object id: sixteen zero bytes).
    case index = 2
    /// One index page (object id: `IndexLayout.objectID(ofPage:)`).
    case indexPage = 3
    /// One directory of an index root of version 5 (object id: `IndexDirectory.objectID(of:)`).
    /// Kind 4 is an attachment object's, which is not sealed as an envelope (docs/FORMAT.md §7.6).
    case indexDirectory = 5
}

/// A sealed object (an entry, the index root or an index page) as stored:
/// `version u8 | kind u8 | generation u32 | nonce 24 | ciphertext ‖ tag`.
///
/// The plaintext is padded with `LengthPadding` before sealing, so its ciphertext is always a
/// bucket size plus the 16-byte tag.
package struct Envelope {
    static let version: UInt8 = 1
    static let prefixLength = 6
    static let overhead = prefixLength + XChaCha20Poly1305.nonceByteCount + XChaCha20Poly1305.tagByteCount
    /// The domain label that opens every associated data string (docs/FORMAT.md §5).
    static let domain: [UInt8] = domainLabel.withUTF8Buffer { Array($0) }
    /// The same label as a literal, for `withAssociatedData`: reading the static array there
    /// ran its one-time initialiser's check for every entry a search opened, a call the
    /// optimiser cannot see into, so it retained and released every reference alive across it.
    static var domainLabel: StaticString { "diary.v1" }
    /// The object id used for the index, which has no UUID of its own.
    package static let indexObjectID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    let kind: ObjectKind
    let generation: UInt32

    /// `domain ‖ vault id ‖ version ‖ kind ‖ generation ‖ object id`: binds the ciphertext
    /// to its vault, its identity, its kind and its key generation, so a sealed entry moved
    /// to another id, another vault or replayed from another generation fails to open.
    package static func associatedData(vaultID: UUID, kind: ObjectKind, generation: UInt32, objectID: UUID) -> [UInt8] {
        var w = ByteWriter(capacity: 8 + 16 + 6 + 16)
        w.append(domain)
        w.uuid(vaultID)
        w.append(prefix(kind: kind, generation: generation))
        w.uuid(objectID)
        return w.bytes
    }

    /// `associatedData` written on the stack and lent to `body`: a scan opens thousands of
    /// entries, and an array for each was an allocation per entry.
    static func withAssociatedData<R>(
        vaultID: UUID, kind: ObjectKind, generation: UInt32, objectID: UUID,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        let label = domainLabel
        return try withUnsafeTemporaryAllocation(
            of: UInt8.self, capacity: label.utf8CodeUnitCount + 16 + prefixLength + 16
        ) { out in
            var at = 0
            func put(_ b: UInt8) {
                out[at] = b
                at += 1
            }
            label.withUTF8Buffer { for b in $0 { put(b) } }
            withUnsafeBytes(of: vaultID.uuid) { for b in $0 { put(b) } }
            put(version)
            put(kind.rawValue)
            for shift in stride(from: 24, through: 0, by: -8) { put(UInt8(truncatingIfNeeded: generation >> shift)) }
            withUnsafeBytes(of: objectID.uuid) { for b in $0 { put(b) } }
            return try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: out[0..<at])))
        }
    }

    package static func prefix(kind: ObjectKind, generation: UInt32) -> [UInt8] {
        var w = ByteWriter(capacity: prefixLength)
        w.u8(version)
        w.u8(kind.rawValue)
        w.u32(generation)
        return w.bytes
    }

    /// Pads and seals `plaintext` under `keys`.
    static func seal(
        _ plaintext: [UInt8], kind: ObjectKind, objectID: UUID, vaultID: UUID, keys: GenerationKeys
    ) throws -> [UInt8] {
        let ad = associatedData(vaultID: vaultID, kind: kind, generation: keys.generation, objectID: objectID)
        let box = try XChaCha20Poly1305.seal(
            try LengthPadding.pad(plaintext), key: keys.key(for: kind), associatedData: ad)
        return prefix(kind: kind, generation: keys.generation) + box.nonce + box.ciphertext
    }

    /// Reads the clear prefix strictly: version, kind and generation, and a ciphertext whose
    /// length is a padding bucket plus a tag.
    package static func peek(_ sealed: [UInt8], expecting kind: ObjectKind) throws -> Envelope {
        try sealed.withUnsafeBytes { try peek($0, expecting: kind) }
    }

    /// `peek` on bytes in place (a scan's buffer).
    static func peek(_ sealed: UnsafeRawBufferPointer, expecting kind: ObjectKind) throws -> Envelope {
        guard sealed.count >= overhead + LengthPadding.minimumBucket else { throw FormatError.truncated }
        guard sealed[0] == version else { throw FormatError.unsupportedVersion(Int(sealed[0])) }
        guard sealed[1] == kind.rawValue else { throw FormatError.invalidField("object kind") }
        let generation = sealed[2..<6].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard LengthPadding.isBucketSize(sealed.count - overhead) else {
            throw FormatError.invalidField("sealed length")
        }
        return Envelope(kind: kind, generation: generation)
    }

    /// Opens a sealed object and removes its padding.
    package static func open(
        _ sealed: [UInt8], kind: ObjectKind, objectID: UUID, vaultID: UUID, keyRing: KeyRing
    ) throws -> [UInt8] {
        let envelope = try peek(sealed, expecting: kind)
        guard let keys = keyRing[envelope.generation] else {
            throw FormatError.invalidField("key generation \(envelope.generation)")
        }
        let nonceEnd = prefixLength + XChaCha20Poly1305.nonceByteCount
        var padded = try XChaCha20Poly1305.open(
            Array(sealed[nonceEnd...]), key: keys.key(for: kind),
            nonce: Array(sealed[prefixLength..<nonceEnd]),
            associatedData: associatedData(
                vaultID: vaultID, kind: kind, generation: envelope.generation, objectID: objectID))
        // The padded copy holds the plaintext too, and nothing else would ever zero it.
        defer { secureZero(&padded) }
        // After authentication only: see `LengthPadding.unpaddedLength` (libsodium's
        // constant-time unpad scans the whole padded block, which cost more than decrypting).
        let length = try padded.withUnsafeBytes { try LengthPadding.unpaddedLength($0) }
        return Array(padded[0..<length])
    }

    /// Opens a sealed object into `buffer` and passes its unpadded plaintext to `body`, with
    /// no copy of the ciphertext or the plaintext: for scans over many entries. Checks exactly
    /// what `open` checks; the plaintext is zeroed once `body` returns or throws.
    static func open<R>(
        _ sealed: [UInt8], kind: ObjectKind, objectID: UUID, vaultID: UUID, keyRing: KeyRing,
        into buffer: PlaintextBuffer, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        try sealed.withUnsafeBytes { raw in
            try open(raw, kind: kind, objectID: objectID, vaultID: vaultID, keyRing: keyRing, into: buffer, body)
        }
    }

    /// The same, for sealed bytes lent in place (a store's scan buffer).
    static func open<R>(
        _ raw: UnsafeRawBufferPointer, kind: ObjectKind, objectID: UUID, vaultID: UUID, keyRing: KeyRing,
        into buffer: PlaintextBuffer, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        let envelope = try peek(raw, expecting: kind)
        let nonceEnd = prefixLength + XChaCha20Poly1305.nonceByteCount
        return try keyRing.withKey(for: kind, generation: envelope.generation) { key in
            try withAssociatedData(
                vaultID: vaultID, kind: kind, generation: envelope.generation, objectID: objectID
            ) { adBytes in
                try XChaCha20Poly1305.open(
                    UnsafeRawBufferPointer(rebasing: raw[nonceEnd...]), key: key,
                    nonce: UnsafeRawBufferPointer(rebasing: raw[prefixLength..<nonceEnd]),
                    associatedData: adBytes, into: buffer
                ) { padded in
                    // After authentication only: see `LengthPadding.unpaddedLength`.
                    try body(UnsafeRawBufferPointer(rebasing: padded[0..<LengthPadding.unpaddedLength(padded)]))
                }
            }
        }
    }
}
