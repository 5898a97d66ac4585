// The storage layer's types that the facade's public API hands to an app (a verify's scan, a backup's and an
// erasure's reports, the errors), exported by name: an app names them through `import WorkoutJournal` alone, and
// the rest of JournalStore (frames, storage, the writer's internals) stays out of its namespace.
@_exported import struct JournalStore.ScanReport
@_exported import struct JournalStore.Damage
@_exported import struct JournalStore.FrameInfo
@_exported import enum JournalStore.StoreError
@_exported import enum JournalStore.Layout
@_exported import enum JournalStore.JournalBackup
@_exported import enum JournalStore.JournalErasure
@_exported import class JournalStore.JournalWriter
