# docs/validation.md, "Twenty fresh years": for each store scripts/fresh-seeds.sh made, the songs
# listed as calming (heart-rate interval below 0, the 10 strongest as songs.md lists them) against the planted effects.
import json, sqlite3, sys
for d in sys.argv[1:]:
    t = json.load(open(d + '/truth.json'))
    planted = {s['catalog_id']: s for s in t['songs']}
    db = sqlite3.connect(d + '.sqlite')
    rows = db.execute("""SELECT s.apple_catalog_id, e.estimate, e.high90, e.low90 FROM song_effect_estimates e
                         JOIN songs s ON s.id = e.song_id WHERE e.signal = 'hr'""").fetchall()
    calming = sorted([r for r in rows if r[2] < 0], key=lambda r: r[1])
    listed = calming[:10]
    energising = [r for r in rows if r[3] > 0]
    def neg(rs): return sum(1 for r in rs if planted[r[0]]['hr_effect_bpm'] < 0)
    both = set(r[0] for r in calming) & set(r[0] for r in energising)
    print(f"{d}: calming {len(calming)} (all estimates < 0: {all(r[1] < 0 for r in calming)}), planted negative {neg(calming)}/{len(calming)}; listed 10: planted negative {neg(listed)}/{len(listed)}; in both lists: {len(both)}")
