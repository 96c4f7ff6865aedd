import FallDetect
import Foundation
@testable import detectord

/// A workflow store in a fresh folder, with Ana Pereira protected and Rui told on `channel`: what
/// the services' tests start from. The caller removes `directory`.
struct ProtectedStore {
    let store: WorkflowStore
    let directory: URL

    init(_ name: String, channel: String = "console") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try WorkflowStore(path: directory.appendingPathComponent("\(name).sqlite").path)
        _ = try store.transaction { tx in
            try tx.adopt(
                person: try ProtectedPerson(fullName: "Ana Pereira", phone: "+351912345678", country: "PT"),
                contacts: [try Contact(name: "Rui", phone: "+351913333333", channel: channel)], pinHash: nil,
                settings: WorkflowSettings(), gnssConfigured: false, at: WorkflowService.utcNow())
        }
    }
}
