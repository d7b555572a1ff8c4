import DiaryExchange
import Foundation

/// Entry points for the libFuzzer targets in `Fuzz/` that read import files, in the manner of
/// `FuzzEntryPoints`: the readers stay out of DiaryExchange's public API (`package` access). A
/// thrown error is the right answer to bad input and is swallowed; a trap is the bug.
public enum ExchangeFuzzEntryPoints {
    /// A Day One `.zip` through the path `diary import --from dayone` takes: the archive's
    /// structure, each `.json` member inflated and checked, and the JSON read into entries.
    public static func dayOneZip(_ bytes: [UInt8]) {
        guard let journals = try? DayOneImporter.journals(inZip: bytes, file: "fuzz.zip") else { return }
        for (name, json) in journals {
            _ = try? DayOneImporter.read(json, file: "fuzz.zip:" + name)
        }
    }
}
