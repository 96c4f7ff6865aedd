extension WorkflowTransaction {
    /// Keeps a trusted position for the messages: the latest, and the three newest for the
    /// payload's direction of travel. The caller applies `.position` to the workflow as well.
    public func recordPosition(latitude: Double, longitude: Double, accuracy: Double?, speed: Double?) throws {
        let position = StoredPosition(latitude: latitude, longitude: longitude, accuracy: accuracy, speed: speed)
        try setSetting("lastPosition", position)
        let history = try setting("positionHistory", as: [StoredPosition].self) ?? []
        try setSetting("positionHistory", Array(([position] + history).prefix(3)))
    }
}
