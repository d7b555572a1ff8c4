import DiaryCrypto
import Foundation

/// Checks one stored attachment object against the record of every attachment that references
/// it, in one pass over its stored bytes: every chunk authenticated, the length, the padding
/// and the stored hash (`AttachmentOpener`), the plaintext emitted nowhere.
///
/// Entries that share the object (dedup) hold copies of one record; records that differ (a
/// key that is not the object's) are each checked, so a failure names exactly the
/// attachments it concerns. Memory: one opener per distinct record, each holding a chunk.
final class AttachmentCheck {
    /// One attachment that references the object: its entry, its name there, its record.
    struct Reference {
        let entry: UUID
        let record: AttachmentRecord
    }

    private final class Variant {
        let record: AttachmentRecord
        var references: [Reference] = []
        var opener: AttachmentOpener?
        var failure: String?

        init(_ record: AttachmentRecord) { self.record = record }
    }

    let objectID: UUID
    private var variants: [Variant] = []

    /// `storedLength`, when the caller knows it, is checked against each record up front.
    init(objectID: UUID, vaultID: UUID, references: [Reference], storedLength: UInt64?) {
        self.objectID = objectID
        for reference in references {
            if let same = variants.first(where: { Self.same($0.record, reference.record) }) {
                same.references.append(reference)
                continue
            }
            let variant = Variant(reference.record)
            variant.references.append(reference)
            do {
                variant.opener = try AttachmentOpener(
                    record: reference.record, vaultID: vaultID, storedLength: storedLength)
            } catch {
                variant.failure = Self.reason(error)
            }
            variants.append(variant)
        }
    }

    /// True while some record may still find the object intact.
    var isAlive: Bool { variants.contains { $0.opener != nil } }

    /// Takes the next stored bytes.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        for variant in variants {
            guard let opener = variant.opener else { continue }
            do { try opener.feed(bytes) { _ in } } catch {
                variant.failure = Self.reason(error)
                variant.opener = nil
            }
        }
    }

    /// `feed` of an array.
    func feed(_ bytes: [UInt8]) { bytes.withUnsafeBytes { feed($0) } }

    /// Ends the check: the damage, one per attachment whose record the object does not match.
    /// Afterwards `isAlive` says whether the object is intact for some record.
    func finish() -> [Damage] {
        for variant in variants {
            guard let opener = variant.opener else { continue }
            do { try opener.finish() } catch {
                variant.failure = Self.reason(error)
                variant.opener = nil
            }
        }
        return variants.filter { $0.failure != nil }.flatMap { variant in
            variant.references.map {
                Damage(object: .attachment(entry: $0.entry, name: $0.record.name), reason: variant.failure!)
            }
        }
    }

    /// Every reference marked failed for `reason` (the object is missing, or unreadable).
    func fail(_ reason: String) -> [Damage] {
        for variant in variants where variant.failure == nil {
            variant.failure = reason
            variant.opener = nil
        }
        return finish()
    }

    private static func same(_ a: AttachmentRecord, _ b: AttachmentRecord) -> Bool {
        a.length == b.length && a.storedHash == b.storedHash && a.streamKey.constantTimeEquals(b.streamKey)
    }

    /// A failure in the words of `verify`'s other findings.
    static func reason(_ error: any Error) -> String {
        guard case AttachmentError.damaged(_, let damage) = error else { return "\(error)" }
        switch damage {
        case .invalidRecord: return "its record is invalid"
        case .wrongLength(let expected, let actual):
            return "the stored object is \(actual) bytes, not the \(expected) its record implies"
        case .wrongPrefix: return "the stored object is not an attachment object (version or kind)"
        case .chunkRefused(let chunk): return "chunk \(chunk) does not authenticate (changed, moved or swapped)"
        case .wrongTag(let chunk): return "chunk \(chunk) carries the wrong end-of-stream tag"
        case .badPadding: return "the padding after the file is not canonical"
        case .hashMismatch: return "the stored bytes do not match the hash its record holds"
        }
    }
}

extension Entry {
    /// The references of this entry (`id`) to the object `objectID` (one entry may name an
    /// object twice, when two of its files were identical).
    func references(to objectID: UUID, id: UUID) -> [AttachmentCheck.Reference] {
        attachments.filter { $0.objectID == objectID }.map { AttachmentCheck.Reference(entry: id, record: $0) }
    }
}

extension AttachmentObject {
    /// Whether `stored` bytes are the exact length of the object of some file of 1 byte to
    /// 4 GiB (what a reader without the record can check).
    static func isValidStoredLength(_ stored: UInt64) -> Bool {
        let prefix = UInt64(prefixLength)
        guard stored > prefix else { return false }
        let chunks = (stored - prefix + UInt64(storedChunkLength) - 1) / UInt64(storedChunkLength)
        guard stored - prefix > UInt64(chunkOverhead) * chunks else { return false }
        let padded = stored - prefix - UInt64(chunkOverhead) * chunks
        // The longest file of that padded length, or the longest file there is (the last bucket
        // holds more than 4 GiB).
        let longest = min(padded - 1, AttachmentLimits.maximumLength)
        return storedLength(for: longest) == stored && paddedLength(for: longest) == padded
    }
}
