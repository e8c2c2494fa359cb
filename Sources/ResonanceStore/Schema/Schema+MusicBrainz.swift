extension Schema {
  /// A song's MusicBrainz recording ID, the identifier a ListenBrainz listen is mapped to
  /// (`mbid_mapping.recording_mbid`): song identity resolves by it as by the other shared
  /// identifiers (`docs/formats.md`, "Song identity"), across imports. Indexed like them.
  static let musicBrainzRecordings = Migration(
    "0020-musicbrainz-recordings",
    sql: """
      ALTER TABLE songs ADD COLUMN musicbrainz_recording_id TEXT;
      CREATE INDEX songs_musicbrainz ON songs (musicbrainz_recording_id);
      """)
}
