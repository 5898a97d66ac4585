import Foundation
/// Ids derived from names and contents, the same on every device and in every run: custom exercise ids from their
/// names, and the 64-bit FNV-1a hash imported workout ids are made of (INTERCHANGE.md).
public enum StableID {
    /// A custom exercise id from a name: `custom-` and the name's words in kebab case (`Leg Press Keller` →
    /// `custom-leg-press-keller`), at most 64 bytes; a name without letters or digits gets its hash.
    public static func customExercise(name: String) -> String {
        var slug = kebab(name)
        if slug.isEmpty { slug = hex(fnv1a(name)) }
        let id = "custom-" + slug
        if id.utf8.count <= 64 { return id }
        var cut = String(id.prefix(55))
        while cut.last == "-" { cut.removeLast() }
        return cut + "-" + String(hex(fnv1a(name)).prefix(8))
    }

    /// A name's words in kebab case, lower case and without accents (`Lat Pulldown` → `lat-pulldown`); empty for a
    /// name without letters or digits.
    public static func kebab(_ name: String) -> String {
        var slug = ""
        for scalar in name.lowercased().folding(options: .diacriticInsensitive, locale: nil).unicodeScalars {
            if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") { slug.unicodeScalars.append(scalar) }
            else if !slug.isEmpty && slug.last != "-" { slug.append("-") }
        }
        while slug.last == "-" { slug.removeLast() }
        return slug
    }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return hash
    }

    /// `value` as 16 lower-case hex digits.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
