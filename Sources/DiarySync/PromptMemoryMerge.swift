import DiaryVault
import Foundation

/// Two machines that each wrote an entry from one template change only its prompt memory
/// (FORMAT.md §7.5): that is not a conflict worth a person's time. When every head of a
/// conflict is the same template (same name, same text) and they differ only in the prompts
/// remembered and the modified time, sync replaces them by one merged version: the union of
/// the memories and the latest modified time.
///
/// The merge is deterministic (it depends on the heads' contents, not on their order or on
/// which machine merges), so two machines that merge the same heads make the same content,
/// whose equal digests are one version, not a new conflict.
enum PromptMemoryMerge {
    static func merged(_ heads: [Head]) -> Entry? {
        let contents = heads.compactMap(\.content)
        guard contents.count == heads.count, let first = contents.first, let fields = first.template else {
            return nil
        }
        for other in contents {
            guard let otherFields = other.template, otherFields.name == fields.name, other.text == first.text,
                other.created == first.created
            else { return nil }
        }
        // Latest first, then by digest: the same order on every machine.
        let ordered = zip(contents, heads.map(\.digest)).sorted {
            $0.0.modified != $1.0.modified ? $0.0.modified > $1.0.modified : $0.1.lexicographicallyPrecedes($1.1)
        }.map(\.0)
        var memory: [String] = []
        for content in ordered {
            for prompt in content.template?.recentPrompts ?? [] where !memory.contains(prompt) {
                memory.append(prompt)
            }
        }
        var result = ordered[0]
        result.template?.recentPrompts = Array(memory.prefix(TemplateName.maximumRecentPrompts))
        return result
    }
}
