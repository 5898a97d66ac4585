import ArgumentParser

/// `journal template export|import`: routines as JSON documents for sharing (seed 002 "Import/export routines as JSON").
struct TemplateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "template", abstract: "Export a template as a routine document, import one, or save a finished workout as a template.",
        discussion: """
        A routine document is one JSON object: {"format": "workout-journal/routine", "version": 1, "name": …, \
        "note": …, "exercises": [{"exercise", "name"?, "sets"?, "reps"?, "rest_s"?, "superset"?, "note"?, \
        "minutes"?, "km"?}]}, the exercises as `template.created` holds them (FORMAT.md §15), each with its \
        display name. Importing checks the document with the recording rules and records one template.created.
        """,
        subcommands: [TemplateExportCommand.self, TemplateImportCommand.self, TemplateSaveCommand.self])
}
