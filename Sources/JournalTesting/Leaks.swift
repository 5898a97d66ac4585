import JournalStore

/// Searching bytes for personal data that must be gone (erasure tests): in the bytes as they are and in the content
/// of every zstd frame that starts anywhere in them, so a compressed copy is found too.
public enum Leaks {
    /// The needles found in `bytes`, raw or inside any zstd frame that starts in them.
    public static func found(_ needles: [String], in bytes: [UInt8]) -> [String] {
        var texts = [bytes]
        let zstd = Zstd()
        for offset in bytes.indices.dropLast(3) where Array(bytes[offset..<(offset + 4)]) == Zstd.frameMagic {
            let frame = Array(bytes[offset...])
            if case .success(let size) = frame.withUnsafeBytes({ Zstd.frameSize($0) }),
               case .success(let content) = frame.withUnsafeBytes({ zstd.decompressFrame(UnsafeRawBufferPointer(rebasing: $0[0..<size])) }) {
                texts.append(Array(content))
            }
        }
        return needles.filter { needle in texts.contains { contains($0, Array(needle.utf8)) } }
    }

    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
