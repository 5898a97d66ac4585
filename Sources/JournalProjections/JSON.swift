import JournalEvents
import JournalModel

/// The `--json` form of every view: fixed keys (PROJECTIONS.md §"Views"), in a fixed order, so output is deterministic.
public protocol JSONRepresentable {
    var jsonValue: JSONValue { get }
}

extension JSONRepresentable {
    /// One line of canonical JSON.
    public var jsonString: String { JSONWriter.string(jsonValue) }
}

@inline(__always) func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
    .object(JSONObject(pairs.map { JSONField($0.key, $0.value) }))
}
@inline(__always) func json(_ value: Int) -> JSONValue { .number(Double(value)) }
@inline(__always) func json(_ value: Double) -> JSONValue { .number(value) }
@inline(__always) func json(_ value: String) -> JSONValue { .string(value) }
@inline(__always) func json(_ value: Bool) -> JSONValue { .bool(value) }
@inline(__always) func json(_ value: Timestamp) -> JSONValue { .string(value.rfc3339) }
@inline(__always) func json(_ value: LocalDate) -> JSONValue { .string(value.description) }
func json<T>(_ value: T?, _ transform: (T) -> JSONValue) -> JSONValue { value.map(transform) ?? .null }
func json<T: JSONRepresentable>(_ value: T?) -> JSONValue { value?.jsonValue ?? .null }
func json<T: JSONRepresentable>(_ values: [T]) -> JSONValue { .array(values.map(\.jsonValue)) }
func json(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

extension DisplayWeight: JSONRepresentable {
    public var jsonValue: JSONValue { object(["weight": json(weight), "unit": json(unit.rawValue)]) }
}

extension SetValue: JSONRepresentable {
    public var jsonValue: JSONValue { object(["weight": json(weight), "unit": json(unit.rawValue), "reps": json(reps)]) }
}

extension ChartPoint: JSONRepresentable {
    public var jsonValue: JSONValue {
        workout.map { object(["date": json(date), "workout": json($0), "value": json(value)]) } ?? object(["date": json(date), "value": json(value)])
    }
}

extension CardioEntry: JSONRepresentable {
    public var jsonValue: JSONValue {
        object(["exercise": json(exercise), "minutes": json(minutes), "km": json(km, json), "calories": json(calories, json)])
    }
}

extension Quantity: JSONRepresentable {
    public var jsonValue: JSONValue { object(["value": json(value), "unit": json(unit)]) }
}

extension PersonalRecord: JSONRepresentable {
    /// `assisted` only on an assisted exercise's records (its `weight_kg` is help), so other records keep their keys.
    public var jsonValue: JSONValue {
        let record = object(["kind": json(kind.rawValue), "exercise": json(exercise), "name": json(name), "workout": json(workout), "date": json(date),
                             "value": json(value), "previous": json(previous), "weight_kg": json(weightKilograms, json), "reps": json(reps, json)])
        guard assisted, case .object(var fields) = record else { return record }
        fields["assisted"] = .bool(true)
        return .object(fields)
    }
}

extension Streaks: JSONRepresentable {
    public var jsonValue: JSONValue {
        object(["current_days": json(currentDays), "longest_days": json(longestDays), "current_weeks": json(currentWeeks),
                "longest_weeks": json(longestWeeks), "current_target_weeks": json(currentTargetWeeks, json),
                "last_workout_date": json(lastWorkoutDate, json)])
    }
}

extension SetSummary: JSONRepresentable {
    public var jsonValue: JSONValue {
        object(["set": json(set), "weight": json(weight), "unit": json(unit.rawValue), "reps": json(reps), "kind": json(kind.rawValue),
                "plus": json(plus), "rpe": json(rpe, json)])
    }
}

extension ExerciseSummary: JSONRepresentable {
    public var jsonValue: JSONValue {
        object(["exercise": json(exercise), "name": json(name), "rosette": json(rosette), "reps_delta": json(repsDelta, json),
                "volume_delta_kg": json(volumeDeltaKilograms, json), "volume_kg": json(volumeKilograms), "superset": json(superset, json),
                "cardio": json(cardio), "notes": json(notes), "sets": json(sets), "assisted": json(assisted)])
    }
}

extension WorkoutSummary: JSONRepresentable {
    public static let firstTimeMessage = "First time completing this workout!"
    public var jsonValue: JSONValue { .object(fields) }
    var fields: JSONObject {
        JSONObject([
            JSONField("workout", json(workout)), JSONField("name", json(name)), JSONField("date", json(date)),
            JSONField("started_at", json(startedAt)), JSONField("finished_at", json(finishedAt)), JSONField("duration_s", json(durationSeconds)),
            JSONField("exercise_count", json(exerciseCount)), JSONField("set_count", json(setCount)), JSONField("reps", json(reps)),
            JSONField("volume_kg", json(volumeKilograms)), JSONField("first_time", json(firstTime)),
            JSONField("previous_workout", json(previousWorkout, json)), JSONField("increased_reps", json(increasedReps)),
            JSONField("increased_load_kg", json(increasedLoadKilograms)), JSONField("edited", json(edited)), JSONField("notes", json(notes)),
            JSONField("exercises", json(exercises)),
        ])
    }
}

extension HistoryState: JSONRepresentable {
    public var jsonValue: JSONValue { object(["total": json(total), "workouts": json(workouts)]) }
}

extension WorkoutDetail: JSONRepresentable {
    public var jsonValue: JSONValue {
        var fields = summary.fields
        fields["records"] = json(records)
        return .object(fields)
    }
}

extension CalendarMonth: JSONRepresentable {
    public var jsonValue: JSONValue {
        let label = "\(year)-\(month < 10 ? "0" : "")\(month)"
        return object(["month": json(label), "days": .array(days.map { object(["date": json($0.date), "workouts": json($0.workouts)]) }),
                       "scheduled": .array(scheduled.map { object(["date": json($0.date), "names": json($0.names)]) })])
    }
}

extension SessionCard: JSONRepresentable {
    public var jsonValue: JSONValue {
        object(["session": json(session), "name": json(name), "exercise_count": json(exercises.count),
                "exercises": .array(exercises.map { object(["exercise": json($0.exercise), "name": json($0.name), "sets": json($0.sets), "reps": json($0.reps, json)]) })])
    }
}

extension HomeState: JSONRepresentable {
    static let weekdays = ["M", "T", "W", "T", "F", "S", "S"]
    public var jsonValue: JSONValue {
        object([
            "name": json(name, json),
            "streak": streak.jsonValue,
            "programme": json(programme) { p in
                object(["split": json(p.split), "week": json(p.week), "weeks": json(p.weeks), "days_per_week": json(p.daysPerWeek),
                        "session_minutes": json(p.sessionMinutes, json), "priority_muscles": json(p.priorityMuscles),
                        "finished": json(p.finished), "next_steps": json(p.nextSteps)])
            },
            "week": object([
                "start": json(week.start), "completed": json(week.completed), "target": json(week.target, json), "workouts": json(week.workouts),
                "sessions": .array(week.sessions.map { object(["session": json($0.session), "name": json($0.name), "completed": json($0.completed), "workout": json($0.workout, json)]) }),
                "calendar": .array(week.calendar.map { object(["date": json($0.date), "weekday": json(HomeState.weekdays[$0.date.isoWeekday - 1]), "finished": json($0.finished), "workouts": json($0.workouts), "scheduled": json($0.scheduled)]) }),
            ]),
            "next_workout": json(nextWorkout),
            "upcoming": json(upcoming),
            "planned": json(planned),
            "planned_workouts": .array(plannedWorkouts.map { card in
                object(["plan": json(card.plan), "name": json(card.name), "date": json(card.date, json), "overdue": json(card.overdue),
                        "exercise_count": json(card.exercises.count),
                        "exercises": .array(card.exercises.map { object(["exercise": json($0.exercise), "name": json($0.name), "sets": json($0.sets), "reps": json($0.reps, json)]) })])
            }),
            "recent_prs": json(recentRecords),
            "last_workouts": .array(lastWorkouts.map {
                object(["workout": json($0.workout), "name": json($0.name), "date": json($0.date), "duration_s": json($0.durationSeconds),
                        "exercise_count": json($0.exerciseCount), "volume_kg": json($0.volumeKilograms)])
            }),
            "message": json(message),
            "active_workout": json(activeWorkout, json),
        ])
    }
}

extension ExerciseHistoryState: JSONRepresentable {
    public var jsonValue: JSONValue {
        object([
            "exercise": json(exercise), "name": json(name), "assisted": json(assisted),
            "empty_message": isEmpty ? json(ExerciseHistoryState.emptyMessage) : .null,
            "best_set": json(bestSet), "start_weight": json(startWeight),
            "sessions": .array(sessions.map {
                object(["workout": json($0.workout), "workout_name": json($0.workoutName), "date": json($0.date), "volume_kg": json($0.volumeKilograms),
                        "top_set": $0.topSet.jsonValue, "e1rm_kg": json($0.e1rmKilograms), "max_weight_kg": json($0.maxWeightKilograms),
                        "reps": json($0.reps), "rosette": json($0.rosette), "sets": json($0.sets), "duration_s": json($0.durationSeconds)])
            }),
            "records": json(records),
            "bests": json(bests) { b in
                object(["heaviest_weight_kg": json(b.heaviestWeightKilograms), "e1rm_kg": json(b.e1rmKilograms), "set_volume_kg": json(b.setVolumeKilograms),
                        "session_volume_kg": json(b.sessionVolumeKilograms),
                        "reps_at_weight": .array(b.repsAtWeight.map { object(["weight_kg": json($0.weightKilograms), "reps": json($0.reps)]) })])
            },
            "charts": object(["volume": json(charts.volume), "e1rm": json(charts.e1rm), "max_weight": json(charts.maxWeight),
                              "weekly_volume": json(charts.weeklyVolume)]),
            // The charts' values are kilograms whatever the lifter's unit (`best_set`/`start_weight` carry theirs).
            "charts_unit": json("kg"),
            "cardio": json(cardio),
            "how_to": json(howTo) { h in
                object(["equipment": json(h.equipment), "setup": json(h.setup), "steps": json(h.steps), "cues": json(h.cues)])
            },
        ])
    }
}

extension ProgressState: JSONRepresentable {
    public var jsonValue: JSONValue {
        object([
            "range": json(range.rawValue), "from": json(from, json), "to": json(to), "workouts": json(workouts),
            "workouts_this_month": json(workoutsThisMonth), "total_volume_kg": json(totalVolumeKilograms), "day_streak": json(dayStreak),
            "record_count": json(recordCount),
            "weekly_frequency": .array(weeklyFrequency.map { object(["week": json($0.week), "workouts": json($0.workouts)]) }),
            "weekly_volume": .array(weeklyFrequency.map { object(["week": json($0.week), "volume_kg": json($0.volumeKilograms)]) }),
            "weekly_sets": .array(weeklyFrequency.map { object(["week": json($0.week), "sets": json($0.sets)]) }),
            "muscle_groups": .array(muscleGroups.map { object(["muscle": json($0.muscle), "sets": json($0.sets), "percent": json($0.percent)]) }),
            "consistency": object(["target": json(consistency.target), "weeks": json(consistency.weeks), "weeks_met": json(consistency.weeksMet),
                                   "percent": json(consistency.percent)]),
            "strength": .array(strength.map { object(["exercise": json($0.exercise), "name": json($0.name), "favourite": json($0.favourite), "points": json($0.points), "assisted": json($0.assisted),
                                                      "e1rm": json($0.oneRepMax), "unit": json("kg")]) }),
            "recent_prs": json(recentRecords),
        ])
    }
}

extension ActiveWorkoutState: JSONRepresentable {
    public var jsonValue: JSONValue {
        object([
            "workout": json(workout), "name": json(name), "started_at": json(startedAt), "elapsed_s": json(elapsedSeconds), "paused": json(paused),
            "previous_workout": json(previousWorkout, json), "can_finish": json(canFinish), "sets": json(sets), "reps": json(reps),
            "volume_kg": json(volumeKilograms),
            "rest": json(rest) { r in
                object(["exercise": json(r.exercise), "state": json(r.state.rawValue), "seconds": json(r.seconds),
                        "remaining_s": json(r.remainingSeconds), "ends_at": json(r.endsAt)])
            },
            "warmup": object(["state": json(warmup.state.rawValue), "remaining_s": json(warmup.remainingSeconds, json)]),
            "exercises": .array(exercises.map { e in
                object([
                    "exercise": json(e.exercise), "name": json(e.name), "prescribed_sets": json(e.prescribedSets), "reps": json(e.reps, json),
                    "rest_s": json(e.restSeconds), "completed_sets": json(e.completedSets), "completed": json(e.completed),
                    "submitted": json(e.submitted), "rep_counter": json(e.repCounter), "next_target": json(e.nextTarget),
                    "warmup_set": json(e.warmup) { w in
                        object(["weight": json(w.weight), "unit": json(w.unit.rawValue), "reps": json(w.reps), "percent": json(w.percent),
                                "plates": json(w.plates, \.jsonValue)])
                    },
                    "feedback": json(e.feedback, json),
                    "injury_warnings": .array(e.injuryWarnings.map { object(["muscle": json($0.muscle), "injury": json($0.injury), "message": json($0.message), "answer": json($0.answer, json)]) }),
                    "superset": json(e.superset, json), "cardio": json(e.cardio), "last_cardio": json(e.lastCardio), "cardio_prefill": json(e.cardioPrefill), "notes": json(e.notes),
                    "attachment": json(e.attachment) { a in object(["name": json(a.name), "owned": json(a.owned, json)]) },
                    "assisted": json(e.assisted),
                    "sets": .array(e.rows.map { r in
                        object(["set": json(r.set), "weight": json(r.weight, json), "unit": json(r.unit.rawValue), "reps": json(r.reps, json),
                                "kind": json(r.kind.rawValue), "completed": json(r.completed), "source": json(r.source.rawValue), "plus": json(r.plus),
                                "plates": json(r.plates, \.jsonValue), "target_rpe": json(r.targetRPE, json)])
                    }),
                ])
            }),
        ])
    }
}

extension PrescribedSet: JSONRepresentable {
    public var jsonValue: JSONValue {
        object(["weight": json(weight, json), "unit": json(unit?.rawValue, json), "reps": json(reps, json), "kind": json(kind.rawValue)])
    }
}

extension TemplatesState: JSONRepresentable {
    public var jsonValue: JSONValue {
        object(["templates": .array(templates.map { t in
            object(["template": json(t.template), "name": json(t.name), "exercise_count": json(t.exercises.count), "muscles": json(t.muscles),
                    "note": json(t.note, json), "created_at": json(t.createdAt), "last_used_at": json(t.lastUsedAt, json),
                    "exercises": .array(t.exercises.map { e in
                        object(["exercise": json(e.exercise), "name": json(e.name), "sets": json(e.sets), "reps": json(e.reps, json),
                                "superset": json(e.superset, json), "set_configs": json(e.setConfigs), "rest_s": json(e.restSeconds, json),
                                "note": json(e.note, json), "minutes": json(e.minutes, json), "km": json(e.km, json)])
                    })])
        })])
    }
}

extension RecordedProgramme: JSONRepresentable {
    public var jsonValue: JSONValue {
        object(["split": json(split), "days_per_week": json(daysPerWeek), "weeks": json(weeks), "session_minutes": json(sessionMinutes, json),
                "priority_muscles": json(priorityMuscles), "goal": json(goal, json), "ruleset": json(ruleset), "generated_at": json(generatedAt),
                "sessions": .array(sessions.map { s in
                    object(["name": json(s.name), "exercises": .array(s.exercises.map { e in
                        object(["exercise": json(e.exercise), "sets": json(e.setCount), "reps": json(e.reps, json), "rest_s": json(e.restSeconds, json)])
                    })])
                })])
    }
}

extension ProfileState: JSONRepresentable {
    public var jsonValue: JSONValue {
        object([
            "name": json(name, json), "email": json(email, json), "member_since": json(memberSince, json), "unit": json(unit.rawValue),
            "birth_date": json(birthDate, json), "gender": json(gender, json), "height": json(height), "body_weight": json(bodyWeight),
            "subscription": json(subscription) { s in
                object(["plan": json(s.plan), "status": json(subscriptionStatus ?? "active"), "price": json(s.price, json),
                        "currency": json(s.currency, json), "trial_days": json(s.trialDays, json),
                        "next_billing_date": json(s.nextBillingDate, json), "effective_date": json(s.effectiveDate, json)])
            },
            "programme": json(programme), "favourites": json(favourites), "settings": .object(JSONObject(settings)),
            "workouts": json(workouts),
            "exercise_rest": .object(JSONObject(exerciseRest.map { JSONField($0.exercise, .int($0.seconds)) })),
            "exports": .array(exports.map { object(["at": json($0.at), "format": json($0.format), "events": json($0.events, json),
                                                    "workouts": json($0.workouts, json), "destination": json($0.destination, json)]) }),
            "questionnaire": .object(JSONObject(answers)),
        ])
    }
}
