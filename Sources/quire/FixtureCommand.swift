import ArgumentParser

/// `quire fixture`: build, pack, verify and install prebuilt databases.
struct FixtureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixture",
        abstract: "Build, pack, verify and install prebuilt Quire databases.",
        discussion: """
            Example:
              quire fixture build my-travel.yaml -o out
              quire fixture install out/my-travel.quire.zip --name travel --directory db
            """,
        subcommands: [
            FixtureGenerateCommand.self, FixtureBuildCommand.self, FixtureVerifyCommand.self,
            FixtureInspectCommand.self,
            FixtureInstallCommand.self, FixtureDoctorCommand.self,
        ]
    )
}
