extension HealthExportWriter {
  /// The XML declaration and internal DTD at the top of every export, with the
  /// `HealthKit Export Version` comment; element and attribute declarations follow the shape of
  /// the Health app's version 14 DTD (`#REQUIRED`/`#IMPLIED` attributes included, which is what
  /// trips Foundation's XMLParser on Linux).
  static let dtd = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!-- HealthKit Export Version: 14 -->
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
    <!ATTLIST HealthData
      locale CDATA #REQUIRED
    >
    <!ELEMENT ExportDate EMPTY>
    <!ATTLIST ExportDate
      value CDATA #REQUIRED
    >
    <!ELEMENT Me EMPTY>
    <!ATTLIST Me
      HKCharacteristicTypeIdentifierDateOfBirth                   CDATA #REQUIRED
      HKCharacteristicTypeIdentifierBiologicalSex                 CDATA #REQUIRED
      HKCharacteristicTypeIdentifierBloodType                     CDATA #REQUIRED
      HKCharacteristicTypeIdentifierFitzpatrickSkinType           CDATA #REQUIRED
      HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse   CDATA #REQUIRED
    >
    <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
    <!ATTLIST Record
      type          CDATA #REQUIRED
      unit          CDATA #IMPLIED
      value         CDATA #IMPLIED
      sourceName    CDATA #REQUIRED
      sourceVersion CDATA #IMPLIED
      device        CDATA #IMPLIED
      creationDate  CDATA #IMPLIED
      startDate     CDATA #REQUIRED
      endDate       CDATA #REQUIRED
    >
    <!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
    <!ELEMENT Correlation ((MetadataEntry|Record)*)>
    <!ATTLIST Correlation
      type          CDATA #REQUIRED
      sourceName    CDATA #REQUIRED
      sourceVersion CDATA #IMPLIED
      device        CDATA #IMPLIED
      creationDate  CDATA #IMPLIED
      startDate     CDATA #REQUIRED
      endDate       CDATA #REQUIRED
    >
    <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
    <!ATTLIST Workout
      workoutActivityType   CDATA #REQUIRED
      duration              CDATA #IMPLIED
      durationUnit          CDATA #IMPLIED
      totalDistance         CDATA #IMPLIED
      totalDistanceUnit     CDATA #IMPLIED
      totalEnergyBurned     CDATA #IMPLIED
      totalEnergyBurnedUnit CDATA #IMPLIED
      sourceName            CDATA #REQUIRED
      sourceVersion         CDATA #IMPLIED
      device                CDATA #IMPLIED
      creationDate          CDATA #IMPLIED
      startDate             CDATA #REQUIRED
      endDate               CDATA #REQUIRED
    >
    <!ELEMENT WorkoutActivity ((WorkoutEvent|WorkoutStatistics|MetadataEntry)*)>
    <!ATTLIST WorkoutActivity
      uuid         CDATA #REQUIRED
      startDate    CDATA #REQUIRED
      endDate      CDATA #IMPLIED
      duration     CDATA #IMPLIED
      durationUnit CDATA #IMPLIED
    >
    <!ELEMENT WorkoutEvent (MetadataEntry*)>
    <!ATTLIST WorkoutEvent
      type         CDATA #REQUIRED
      date         CDATA #REQUIRED
      duration     CDATA #IMPLIED
      durationUnit CDATA #IMPLIED
    >
    <!ELEMENT WorkoutStatistics EMPTY>
    <!ATTLIST WorkoutStatistics
      type      CDATA #REQUIRED
      startDate CDATA #REQUIRED
      endDate   CDATA #REQUIRED
      average   CDATA #IMPLIED
      minimum   CDATA #IMPLIED
      maximum   CDATA #IMPLIED
      sum       CDATA #IMPLIED
      unit      CDATA #IMPLIED
    >
    <!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
    <!ATTLIST WorkoutRoute
      sourceName    CDATA #REQUIRED
      sourceVersion CDATA #IMPLIED
      device        CDATA #IMPLIED
      creationDate  CDATA #IMPLIED
      startDate     CDATA #REQUIRED
      endDate       CDATA #REQUIRED
    >
    <!ELEMENT FileReference EMPTY>
    <!ATTLIST FileReference
      path CDATA #REQUIRED
    >
    <!ELEMENT ActivitySummary EMPTY>
    <!ATTLIST ActivitySummary
      dateComponents           CDATA #IMPLIED
      activeEnergyBurned       CDATA #IMPLIED
      activeEnergyBurnedGoal   CDATA #IMPLIED
      activeEnergyBurnedUnit   CDATA #IMPLIED
      appleMoveTime            CDATA #IMPLIED
      appleMoveTimeGoal        CDATA #IMPLIED
      appleExerciseTime        CDATA #IMPLIED
      appleExerciseTimeGoal    CDATA #IMPLIED
      appleStandHours          CDATA #IMPLIED
      appleStandHoursGoal      CDATA #IMPLIED
    >
    <!ELEMENT MetadataEntry EMPTY>
    <!ATTLIST MetadataEntry
      key   CDATA #REQUIRED
      value CDATA #REQUIRED
    >
    <!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
    <!ELEMENT InstantaneousBeatsPerMinute EMPTY>
    <!ATTLIST InstantaneousBeatsPerMinute
      bpm  CDATA #REQUIRED
      time CDATA #REQUIRED
    >
    <!ELEMENT ClinicalRecord EMPTY>
    <!ATTLIST ClinicalRecord
      type              CDATA #REQUIRED
      identifier        CDATA #REQUIRED
      sourceName        CDATA #REQUIRED
      sourceURL         CDATA #REQUIRED
      fhirVersion       CDATA #REQUIRED
      receivedDate      CDATA #REQUIRED
      resourceFilePath  CDATA #REQUIRED
    >
    <!ELEMENT Audiogram EMPTY>
    <!ELEMENT VisionPrescription EMPTY>
    ]>

    """
}
