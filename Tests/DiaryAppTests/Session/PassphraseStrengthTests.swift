import DiaryApp
import Foundation
import XCTest

/// The strength check's verdicts, as values (the CLI words them; `WeakSettingsCLITests` keeps
/// one binary run per kind for the words).
final class PassphraseStrengthTests: XCTestCase {
    private func weakness(_ text: String) -> PassphraseWeakness? {
        PassphraseStrength.of(secretBytes(text)).weakness
    }

    func testEachKindOfWeakPassphraseIsNamed() {
        XCTAssertEqual(weakness("a"), .tooShort(characters: 1, bits: 4))
        guard case .tooShort(characters: 7, _)? = weakness("Tr0ub!e") else {
            return XCTFail("\(String(describing: weakness("Tr0ub!e")))")
        }
        for repeated in ["aaaaaaaaaaaaaaaaaaaa", "xyzxyzxyzxyzxyzxyz"] {
            guard case .repeatedUnit? = weakness(repeated) else { return XCTFail(repeated) }
        }
        for sequence in ["abcdefghijklmnopqrstu", "123456789012"] {
            guard case .mostlyPredictable? = weakness(sequence) else { return XCTFail(sequence) }
        }
        for common in ["Password123!", "letmein", "password password"] {
            XCTAssertEqual(weakness(common), .common, common)
        }
        // A common word repeated is worth only the count of its repeats.
        XCTAssertEqual(weakness("passwordpassword"), .repeatedUnit(bits: 1))
    }

    func testALongRandomLookingPassphraseIsNotWeak() {
        XCTAssertNil(weakness("seven quiet herons crossing a frozen lake"))
        XCTAssertNil(weakness("k7#Qp2!vX9@m"))
        XCTAssertGreaterThanOrEqual(
            PassphraseStrength.of(secretBytes("k7#Qp2!vX9@m")).bits, PassphraseStrength.minimumBits)
    }
}
