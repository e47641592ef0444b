"""The frozen reader sets: blind text the extraction model was never tuned on.

Each file in ``benchmarks/data/reader_eval/`` is one conversation, written before the
trained reader existed, run once and then frozen: its header records that first run of the
rules (``first_run``) and the first run of the trained reader (``trained_first_run``, v1,
before anything was changed after seeing its misses; later figures are not blind), and
the first run of the fine-tuned reader (``tuned_first_run``, MiniLM's top two layers
trained with the heads), and its first run once retrained with the hand-written lines of
training/written (``written_first_run``, beside the rules' run at the same commit,
``reader35c_rules_first_run``), and the first run of the reader with four tuned layers
beside the rules' run at the same commit (``reader35d_first_run``: ``tuned`` and ``rules``),
and that reader's first run calibrated for 0.95 right per label, the default since
(``cal95_first_run``), and the first run of that graph trained 2.5 epochs more
(``train35e_first_run``, not shipped), and the default at session 23's end: that
calibration with held-slot updates (``session23_first_run``), and that graph with bars
chosen on the development sets in new voices (``reader35f_first_run``, not shipped), and
the default at session 24's end (``session24_first_run``), and that graph with one bar for
every label (0.85) chosen on those development sets (``bar24_first_run``, not shipped), and
session 25's fact parts checked for every reader with the reader's cut values completed
(``shape25_first_run``: judged by meaning, the literal judge's figures beside), and the
graph trained on lines in new voices that became session 25's default
(``session25_first_run``). Six sets written in session 25 before that training
(salon_vietnamese, scouse_plasterer, moscow_dev, priest_letters, accra_trader,
choir_group) record the default of the session's start as their ``first_run`` (literal
judge) beside the rules' (``rules_first_run``). Session 27 turned ``likes`` and ``plays`` on
at 0.95 for real chats' hobbies (chosen on the development sets and LoCoMo's dev facts,
locomo_facts.py) and ran all 26 sets once (``session27_hobbies_first_run``, literal judge:
capture 437 -> 440 of 1,195, precision 421/580 -> 424/585, store-nothing 323/334 both;
not shipped: precision fell, as it did on LoCoMo's frozen conv-41, 16/30 -> 17/33). Then
a second opinion per reading in place of the per-label bars (models/reader/verify.py,
fitted by training/verifier.py on the development sets), once
(``session27_verifier_first_run``, literal: capture 437 -> 461, updates 19 -> 21,
corrections 15 both, precision 421/580 -> 446/619, store-nothing 323/334 both; conv-41
31/85 -> 34/85 at 16/30 -> 19/33; not shipped: precision on the 26 sets fell by 0.005).
Six sets written at session 27's end by helpers who saw neither the verifier nor any
other set (midwest_mom_texts, london_uni_friends, indonesian_student_melbourne,
winnipeg_retirees_email, lisbon_surf_instructor, boston_grad_group) record the default's
first run (``first_run``: capture 117/297, updates 6/48, corrections 2/42, precision
115/165, store-nothing 73/78), the rules' (``rules_first_run``: 67/297, 1/48, 0/42, 65/94,
74/78) and the unchanged verifier's (``session27_verifier_first_run``: 129/297, 10/48,
2/42, 126/184, 71/78), for the next judgement of a reader change. Session 28 judged the
verifier with the graph's own signals among its clues once on all 32 sets
(``session28_verifier2_first_run``, V2, literal: capture 554 -> 660 of 1,492, updates 25 ->
34/225, corrections 17 -> 24/198, precision 536/745 -> 642/891, store-nothing 396 ->
391/412; not shipped: store-nothing under 0.95), then V3 (bar 0.66, no outside scale) on
six sets written for it (cardiff_bus_driver, tokyo_expat_teacher,
family_reunion_cousins_group, cairo_architect, oil_sands_camp_cook,
adelaide_book_club_rambles): ``first_run`` 124/292, 8/50, 6/42, 120/165, 71/74;
``rules_first_run`` 79/292, 2/50, 3/42, 74/102, 71/74; ``session28_v3_first_run``
148/292, 11/50, 8/42, 145/194, 70/74 (store-nothing one line under 0.95; V3 then shipped
on a pooled judgement with six more sets, blind28c/d: training/README.md). Session 29 judged
the answered message read with a reply only where it asks (``session29_p1_first_run``) on
six sets written for it (tea_estate_manager_formal, montreal_rideshare_texts,
swansea_rugby_mums_group, edinburgh_phd_terse, new_york_dictation_elder,
braai_group_chat): ``first_run`` 122/299, 6/48, 4/42, 117/150, 79/81; ``rules_first_run``
59/299, 2/48, 2/42, 54/64, 81/81; P1 129/299, 6/48, 5/42, 123/154, 80/81 (shipped). Six
more (hamburg_nurse_second_language, glasgow_shopkeeper_texts, dunedin_teachers_group,
orlando_line_cook_spanglish, nairobi_pharmacist_terse, oxford_rowers_discord) record the
default's with P1 (``first_run`` 120/296, 11/48, 5/43, 115/156, 71/74), the rules'
(52/296, 1/48, 1/43, 51/73, 72/74), V3's before P1 (121/296, 8/48, 5/43, 116/156, 71/74)
and the rules' health and important dates left to the reader (``session29_p3_first_run``:
120/296, 11/48, 5/43, 115/154, 71/74; not shipped: it broke date repairs). Session 30
judged corrections by shape (layers/realign.py, ``session30_realign_first_run``) on six
sets written for it (krakow_dental_nurse, texas_trucker_voice, toronto_roommates_chat,
irish_retired_teacher, lisbon_barber_br, singapore_pharmacist_terse), by meaning:
``first_run`` 131/268, 7/48, 14/42, 128/183, 69/72; ``rules_first_run`` 52/268, 1/48,
4/42, 51/71, 70/72; realign 133/268, 7/48, 16/42, 131/186, 69/72 (shipped); with values
named as replaced (``session30_replaced_first_run``) 133, 8, 16, 131/186, 69 (shipped); the
graph trained on plans and friends' chats (``session30_retrain_first_run``) 145, 13, 15,
142/195, 68/72, one line under 0.95 store-nothing, so six more sets were written before any
run of them (alberta_grandpa_dictation, birmingham_bus_mechanic, chennai_it_manager,
leeds_five_a_side, lofoten_skipper, ojai_yoga_teacher): ``first_run`` 140/299, 13/48,
16/42, 138/173, 72/72; ``rules_first_run`` 52/299, 2/48, 8/42, 52/66, 72/72; the retrained
graph 150, 13, 16, 147/184, 72; pooled over the twelve it passed and shipped. Six more,
written at session 30's end for the next change and run by nobody's candidate yet
(night_doctor_manchester, abuela_san_antonio, joburg_sisters_70th, helsinki_game_dev,
southland_farm_emails, dubai_nurse_taglish), record the default's first run at main
84e4702 (``first_run``: 135/312, 6/48, 12/42, 131/188, 69/72) and the rules'
(``rules_first_run``: 77/312, 1/48, 9/42, 73/106, 71/72). Session 34 ran them first, for
the span floor (the tuned graph's labels pooled over their B- and I- tags, a value read
from 0.35 up): main a53b9dd before it (``session34_before_floor_first_run``: 136/312,
6/48, 12/42, 132/188, 69/72) and with it (``session34_floor_first_run``: 136/312, 7/48,
12/42, 132/191, 69/72); pooled over all 74 frozen sets it passed (training/README.md).
Six more, written that session by helpers who saw no code, data or evaluation set
(istanbul_cabin_crew, lima_barista_tattoo_apprentice, marseille_cousins_group,
trini_steelpan_tutor, victoria_falls_walking_guide, westland_tomato_grower: 346
statements, 48 updates, 42 corrections, 72 lines that state nothing), record main
a53b9dd's first run (``first_run``: 159/346, 16/48, 6/42, 155/211, 67/72), the rules'
(``rules_first_run``: 69/346, 3/48, 1/42, 65/93, 69/72), the span floor's
(``session34_floor_first_run``: 158, 16, 8, 152/206, 67) and that of the floor with its
verifier refitted (``session34_refit_first_run``: 159, 15, 6, 153/207, 66; not shipped).
Six more, written during session 34 by helpers who saw nothing (c_a_gazipur_compliance_officer,
c_a_pittsburgh_nonno_tiler, c_a_westfjords_fishvillage_teen, c_b_chattanooga_hvac_dad,
c_b_plymouth_cheese_nightshift, c_b_vienna_piano_tuner: 355 statements, 48 updates, 42
corrections, 72 lines that state nothing), record the default's first run at main e8df6a1
(``first_run``: 187/355, 10/48, 19/42, 185/254, 67/72) and the rules' (``rules_first_run``:
73/355, 0/48, 6/42, 71/106, 69/72); then, once, the reader reading repair turns with the
repair layer's edits first (``session34_repair_first_run``: 191, 11, 21, 189/258, 67;
shipped). Six more, written at session 34's end for the next change and run by nobody's
candidate yet (d_a_hobart_aged_care_pca, d_a_korcula_radio_officer,
d_a_makerere_land_econ_student, d_b_altiplano_quinoa_grower, d_b_apia_brisbane_aiga,
d_b_bangkok_deal_counsel: 352 statements, 48 updates, 42 corrections, 72 lines that state
nothing), record the default's first run at main 13eaf6b (``first_run``: 161/352, 13/48,
11/42, 159/218, 69/72) and the rules' (``rules_first_run``: 63/352, 3/48, 2/42, 59/93,
70/72). Session 35 ran them once, for the graph's veto of the rules' facts (not shipped:
161 -> 160, right 159/218 -> 158/216; training/README.md). Six more, written in session 35
by helpers who saw nothing (e_a_cluj_block_neighbours, e_a_ethiopian_runner,
e_a_lahore_home_baker, e_b_hilo_ohana, e_b_hsinchu_fab, e_b_mendoza_guide: 373 statements,
58 updates, 48 corrections, 72 lines that state nothing), record the default's first run
at main 40177b3 (``first_run``: 171/373, 9/58, 16/48, 170/230, 71/72), the rules'
(``rules_first_run``: 74/373, 1/58, 5/48, 73/98, 71/72) and, once, the session's own fact
changes (names said to someone refused, ages of the past refused, repairs read in their
frame: identical counts). Six more, written at session 35's end for the next change and
run by nobody's candidate yet (f_a_isfahan_teacher, f_a_karakol_guide,
f_a_valencia_flatmates, f_b_bajan_ramp_crew, f_b_raub_durian_uncle,
f_b_umea_physio_student: 396 statements, 63 updates, 49 corrections, 72 lines that state
nothing), record the default's first run at the session's end (``first_run``: 165/396,
12/63, 11/49, 162/226, 71/72) and the rules' (``rules_first_run``: 57/396, 2/63, 1/49,
54/86, 72/72). Session 36 ran those once for the assistant's guesses (layers/proposals.py):
every figure unchanged. Six more (g_a_dakar_tailor, g_a_kolkata_railway_pensioner,
g_a_reno_casino_dealer, g_b_hanoi_cafe_crew, g_b_rotterdam_crane_ops,
g_b_tucson_roller_derby: 416 statements, 60 updates, 48 corrections, 80 lines that state
nothing), written in session 36 by a helper who saw nothing, record the default before
two changes (``first_run``: 148/416, 3/60, 1/48, 128/185, 73/80), the first (T: terse
answers about named people, ``t36_first_run``: 147/416, 127/184, the rest the same; one
answer lost, the cause mended after the run) and the second (P: "he" and "she" read as
whom the turn named last, ``p36_first_run``: 150/416, 130/187, the rest the same). Six
more written at the session's end the same way (h_a_tbilisi_sommelier,
h_a_halifax_paramedic, h_a_savannah_retired_librarian, h_b_bologna_cycling_club,
h_b_nagpur_wedding_cousins, h_b_willow_mushing_kennel: 426 statements, 59 updates, 48
corrections, 79 lines that state nothing) record the default at the session's start
(``session36_start_first_run``: 167/426, 10/59, 6/48, 147/196, 74/79), at its end
(``first_run``: 168/426, the rest the same but 148/197) and R, a repair's old value only
the assistant said read as the guess it corrects (``r36_first_run``: identical to the
end's; not shipped).
Six more, written in session 37 by a helper who saw nothing (j_a_crete_olive_grower,
j_a_jakarta_lab_analyst, j_a_cork_teen_in_buenos_aires, j_b_windhoek_chess_club,
j_b_memphis_hub_night_shift, j_b_armenian_family_80th: 416 statements, 61 updates, 48
corrections, 77 lines that state nothing), record the default at the session's start
(``session37_start_first_run``: 134/416, 11/61, 4/48, 124/182, 73/77) and G1, a plan in
its -ing form kept where its sentence sets it ahead (``g1_first_run``: identical; shipped).
Six more written the same way (i_a_durban_florist_rush, i_a_asheville_potter_dictation,
i_a_samarkand_student_wroclaw, i_b_berlin_neukolln_wg, i_b_cork_camogie_team,
i_b_oakland_fridge_volunteers: 427 statements, 60 updates, 49 corrections, 78 lines that
state nothing) record the default with G1 (``first_run``: 153/427, 11/60, 2/49, 148/196,
76/78) and, after it, the session's start (``session37_start_run``: 151/427, 10/60, 2/49,
146/193, 76/78). Six more written the same way (k_a_newborn_night_feeds,
k_a_retired_gurkha_formal, k_a_amsterdam_courier_turkish, k_b_north_shore_wedding_party,
k_b_leicester_band_van_tour, k_b_tyneside_grandad_care: 411 statements, 60 updates, 48
corrections, 77 lines that state nothing) record the default's first run (``first_run``:
118/411, 10/60, 0/48, 104/159, 72/77) and M1, the verifier reading meaning
(``m1_first_run``: 116/411, 9/60, 2/48, 103/162, 72/77; not shipped: training/README.md).
Six more, written at session 37's end for the next change and run by nobody's candidate
yet (l_a_fogo_crab_fisherman, l_a_aarhus_oncology_pharmacist, l_a_cornwall_home_ed_mum,
l_b_duluth_lutheran_choir_committee, l_b_swindon_parcel_depot,
l_b_exeter_flatmates_house_hunt: 451 statements, 61 updates, 48 corrections, 79 lines
that state nothing), record the default's first run at main dd06c92 (``first_run``:
176/451, 10/61, 5/48, 155/211, 77/79) and the rules' (``rules_first_run``: 80/451, 3/61,
2/48, 72/94, 77/79). In session 38 q38, the trained reader reading whole questions
(not shipped), read them exactly as main did. Three more, written in session 38 by a
helper who saw nothing, of a person who mostly asks the assistant things and says what
they are on the way (m_a_glasgow_mechanic, m_a_lagos_parent, m_a_montreal_student: 144
statements, 18 updates, 6 corrections, 42 lines that state nothing; only 7 lines hold a
fact inside a sentence that is a question from its first word), record the default's
first run at main 273b62e (``first_run``: 86/144, 7/18, 0/6, 84/104, 42/42), which q38
equalled. Two more, written then by another such helper, where nearly every line is one
question carrying a fact inside it ("is it safe to take ibuprofen with my sertraline?";
n_a_cardiff_nurse, n_a_pune_engineer: 85 statements, 6 updates, 22 lines that state
nothing), record the default's first run at main f1c252e (``first_run``: 10/85, 0/6,
10/11, 22/22) and q38's, shipped on it (``q38_first_run``: 21/85, 0/6, 21/22, 22/22).
Ten more, written in session 41 by a helper who saw no code, for corrections and updates
worded freely (galway_harp_maker_rambles, hyderabad_founder_hinglish,
lamu_dhow_builder_voice, nola_brass_band_group, pilbara_fifo_sparky_fragments,
quito_atc_terse_asked, shetland_lifeboat_crew_group, tartu_translator_letters,
ulaanbaatar_geologist_second_language, whitehorse_teen_lowercase: 225 statements, 32
updates, 40 corrections, 34 lines that state nothing), record the default's first run at
main de1ef3d (``first_run``: capture 0.41, updates 0.16, corrections 0.20, precision 0.68
of 132, nothing 1.00) and that of layers/swaps.py, written for them (``swaps_first_run``:
identical on every set). Eight more, written then by another such helper
(bath_magistrate_letters, lower_hutt_plumber_dad_fragments, lyon_ukrainian_beekeeper,
mackinac_ferry_engineer_dictation, nairobi_matatu_owner_sheng, ottawa_court_reporter_terse,
porto_erasmus_lowercase, portland_food_truck_group: 151 statements, 26 updates, 32
corrections, 29 lines that state nothing), record main's first run at de1ef3d
(``first_run``: 0.34, 0.12, 0.03, 0.57 of 83, 1.00), that of the swaps
(``swaps_first_run``: corrections 0.06, precision 0.58), of layers/dated_plans.py
(``dated_plans_first_run``: capture 0.35, precision 0.57 of 84) and of both
(``merged_first_run``: 0.36, 0.12, 0.06, 0.58 of 84, 1.00).
Sixteen more, written in session 42 by two helpers who saw no code, facts stated as
people say them with a few updates and corrections (blind42: bonwire_kente_weavers_group,
caye_caulker_dive_kriol, gaborone_diamond_valuator_letters, iqaluit_nurse_terse_asked,
recife_sanfona_teacher_rambles, tunis_pharmacist_mum_fragments, ushuaia_tug_mate_dictation,
valparaiso_funicular_lowercase; blind42b: almaty_ski_patrol_second_language,
busan_fish_auctioneer_dictation, cebu_dive_instructor_lowercase,
darwin_radiographer_mum_fragments, fushimi_sake_brewer_terse, ljubljana_archivist_letters,
orkney_knitwear_designer_rambles, port_vila_kava_friends_group: 351 statements, 47 updates,
49 corrections, 58 lines that state nothing), record main's first run at 21f72b2
(``first_run``: capture 0.46, updates 0.19, corrections 0.20, precision 0.71 of 222,
nothing 0.98) and the rules' (``rules_first_run``: 0.15, 0.00, 0.04, 0.65 of 80, 0.98),
and that of G42s, the graph trained for them with names swapped between lines
(``g42s_first_run``: 172/351, 8/47, 14/49, 167/236, 57/58; shipped: training/README.md).
Sixteen more, written then by two more such helpers after G42s was chosen (blind43:
amman_concierge_letters, beirut_bakery_coworkers_group, belem_river_pilot_dictation,
cartagena_customs_broker_terse_asked, kigali_moto_driver_second_language,
monterrey_brewery_dad_fragments, montevideo_tango_widow_rambles,
port_harcourt_welder_pidgin; blind43b: bratislava_tram_driver_nonnative,
kathmandu_trek_agency_emoji, kautokeino_reindeer_herder_voice, penang_hawker_manglish,
suva_rugby_coach_asked, thessaloniki_bougatsa_widow_rambles, ulsan_shipyard_welders_group,
vilnius_organist_letters: 386 statements, 48 updates, 48 corrections, 60 lines that state
nothing), record the first runs of main at 21f72b2 (``first_run``: 191/386, 11/48, 18/48,
189/261, 58/60), of the rules (``rules_first_run``: 0.16, 0.04, 0.06, 0.60 of 100, 58/60)
and of G42s (``g42s_first_run``: 203/386, 9/48, 18/48, 201/275, 58/60): a second blind look
at G42s, and first runs for the next change; G43 ran there once (``g43_first_run``:
201/386, 11/48, 17/48, 198/276, 58/60; not shipped).
Sixteen more, written in session 43 by two helpers who saw no code (blind44: eight chats
between two people who know each other, catching up over weeks in long warm messages with
the facts said in passing, every line with its speaker: amarillo_dad_vetschool_daughter,
bristol_tromso_sisters, derby_excolleagues_lowercase, ibadan_mum_calgary_son,
kingston_scarborough_cousins_patois, mojacar_kettering_neighbours,
perth_melbourne_besties_emoji, valdivia_gdansk_penpals; blind44b: caspian_rig_medic_fragments,
chiangmai_elephant_clinic_group, galle_cricket_scorer_rambles,
hvalba_faroe_shepherd_terse_asked, noumea_lycee_teacher_french_calques,
nukualofa_church_treasurer_letters, palermo_fishmonger_nonna_dictation,
papamoa_packhouse_teen_lowercase: 398 statements, 46 updates, 50 corrections, 68 lines
that state nothing), record main's first run at 3052ed7 (``first_run``: 170/398, 7/46,
9/50, 169/234, 67/68) and the rules' (``rules_first_run``: 61/398, 1/46, 2/50, 60/88,
67/68). The two-person chats are the hardest text yet: capture 84/213 = 0.39 there against
86/185 = 0.46 in blind44b. After these runs the misses of two of them
(amarillo_dad_vetschool_daughter, kingston_scarborough_cousins_patois) were read, and a fix
came from them (a place read with the preposition before it: facts.py ``_unled``), so those
two are no longer blind; it changed no figure of any set. Session 44 ran the other
fourteen once more, for its change to whose a value is when the graph tags no name
(``whose44_first_run``): main at 700f02a 163/348, updates 7/41, corrections 8/43, right
163/223; the change 164/348, 8/41, 8/43, 164/226. Their misses were not read.
Session 44 added **blind45** (eight sets written blind by a helper who saw no code, none
of the other sets and no training data: brno_flatmates_lowercase,
esbjerg_retired_bosun_voice, grenville_customs_widower_asked,
kindersley_young_mom_terse_asked, lucknow_advocate_formal, mombasa_muscat_cousins_warm,
surabaya_teen_gamer_emoji, wollongong_community_garden_group: 249 statements, 27 updates,
25 corrections, 54 lines that state nothing), run once at 772d7d6 (``first_run``: 94/249
= 0.38, updates 8/27, corrections 6/25, right 91/128 = 0.71, nothing 54/54; the rules
alone, ``rules_first_run``: 40/249, 1/27, 1/25, 37/54, 54/54). Unread: first runs for the
next change. Session 45 ran blind45 once with its fixes of wrong facts (``session45_run``,
dda81e6): the same figures as session 44's end (94/249, 91/129). It added **blind46** (eight
sets written blind by a helper who saw no code and no other set:
ballarat_retired_stonemason_dictation, cape_town_teen_skater_emoji,
dundee_toronto_cousins_family_news, graz_retired_notary_letters,
hamamatsu_brazilian_nikkei_second_language, kotor_trondheim_erasmus_friends_rambling,
nicosia_beach_volleyball_group, oaxaca_mezcalero_terse_asked: 458 statements, 45 updates,
41 corrections, 94 lines that state nothing), run once on the session's start, edf8445
(``first_run``: 152/458 = 0.33, updates 10/45, corrections 15/41, right 147/225 = 0.65,
nothing 88/94) and once on its end (``session45_run``: 151/458, 10/45, 15/41, 146/224,
88/94). One line's difference was read: a false denial ("It is not true that fiona's mum
is 82 years old") had counted as right by its value. The rest is unread.
Session 46 ran blind45 and blind46 once for S46b, a soup of three fine-tuned graphs with the
verifier's bar at 0.68 (``s46_soup_first_run``: blind45 + blind46 257/707, updates 19/72,
corrections 21/66, right 248/377, nothing 142/148, against main's 245/707, 18/72, 21/66,
237/353, 142/148; not shipped: training/README.md), and added **blind47** (eight sets
written blind by a helper who saw no code and no other set:
antofagasta_copper_mine_surveyor_terse_asked, boise_daughter_mothers_parkinsons,
chisinau_winery_chemist_second_language, ghent_bike_repair_coop_group,
guernsey_funeral_director_emails, kandy_bradford_brothers_catchup,
missoula_fire_lookout_dictation, tulsa_teen_barrel_racer_emoji: 555 statements, 56
updates, 41 corrections, 76 lines that state nothing), run once on main at 31a47e4
(``first_run``: 209/555 = 0.38, updates 17/56, corrections 8/41, right 201/281 = 0.72,
nothing 69/76) and once for S46b (``s46_soup_first_run``: 209/555, 17/56, 8/41, 202/291,
68/76). Then blind45's false facts were read, for engine bugs (session 46's two subject
fixes): blind45 is development text since. blind46 and blind47 are unread.
Session 47 ran blind46 and blind47 once for its checks on readings, each written before
the run (a clause said of the one addressed gives the writer no value; the writer's own
words said in the third person; titles in a data file, never a name, never a sentence's
end): ``s47_checks_first_run`` 359/1,013, updates 27/101, corrections 23/82, right
346/503, nothing 158/170, against main's (5a7a6ae) 360/1,013, 27/101, 23/82, 347/505,
157/170. Shipped (its rule: right at least main's less 2, precision at most 0.005 lower,
nothing at most 1 lower). Still unread; session 48 ran them after each of its changes
(below), and records its head's run as ``s48_head_run``: 361/1,013, updates 27/101,
corrections 23/82, right 348/503, nothing 158/170.
Session 48 added **blind48** (eight sets written blind by a helper who saw no code and no
other set: cornwall_twins_gcse_group, hokkaido_ski_patrol_second_language,
lagos_startup_founder_voice_notes, manila_call_center_night_shift_taglish,
quebec_retired_nurse_formal_letters, reykjavik_glaciologist_terse_answers,
tasmanian_beekeeper_emails_to_assistant, wrexham_allotment_society_group: 443
statements, 63 updates, 44 corrections, 181 lines that state nothing), run once on main
at 17d7ff2 (``first_run``: 149/443 = 0.34, updates 13/63, corrections 6/44, right
149/230 = 0.65, nothing 179/181), then for session 48's supersession changes with a held
value said short after "not" swapped (``s48_clip_first_run``: 149, 13, 6, 149/231, 178;
not shipped: the one new fact, read to find which part made it, was a nickname after
"not" taken for a correction of a spouse's name) and without it, shipped
(``s48_supersession_first_run``: as main). Unread but for that one line. Nine of its
updates' old values were paraphrases no stored fact could hold ("moving to bath in
august" for a line that says Bath); a helper who saw no run made each the words its
earlier line says ("bath"), and the three runs, made again, gave the same figures in every
set. Then a new thing of a kind replacing one held under its own name (a new laptop, the
"thinkpad x230" keyed "owns:thinkpad"), shipped (``s48_kinds_first_run``: 149/443,
updates 14/63, corrections 6/44, right 149/230, nothing 179/181; blind46 + blind47 as
before), and a thing named in answer to another's question naming its kind keyed by that
kind (layers/things.py), and a bare denial's note dropped where the same message answers
it ("not 45, he is 47, I counted wrong"), and a writer's reading refused in a question
that names no writer ("still at the bbc?"): every figure of blind48, blind46 and blind47
as just before, each time. Then a value given to the name of its own clause and a number
after a school year's word refused as an age: blind48 as before; blind46 + blind47
captured 359 -> 361, right 346/503 -> 348/503, the rest as before. Last, a thing named
only by the words of a time refused ("a 2011"): every figure as just before.
Session 49 added **blind49** (eight sets written blind by a helper who saw no code and no
other set: asuncion_jopara_mechanic, constanta_lorry_driver_nonnative,
kalgoorlie_retired_assayer_terse_asked, kuching_teen_badminton_emoji,
nuuk_harbour_pilot_terse_asked, saskatoon_curling_team_group, tirana_dental_clinic_group,
uppsala_brazilian_phd_rambles: 439 statements, 66 updates, 47 corrections, 175 lines that
state nothing), run once on main at 65aa0ed before any change it judges (``first_run``:
128/439 = 0.29, updates 2/66, corrections 3/47, right 125/190 = 0.66, nothing 169/175).
English mixed with Spanish and Guaraní scores 2/60 there. Unread. Then a person or pet
named in the sentence after its relation word, and a pet named with no relation word
(``s49_relations_first_run``: 132/439, updates 2/66, corrections 3/47, right 129/195,
nothing 169/175; blind48 150/443, right 150/233; blind46 + blind47 362/1,013, right
349/506, the rest as before), shipped with a guard the suite asked for after that run
(no pet without a relation word where the sentence says one the graph left untagged:
"Bella is my neighbour's dog"; ``s49_relations_fixed_run``: 131/439, right 128/194;
blind48 149, right 149/231; blind46 + blind47 361, right 348/505).
Session 50 added **blind50** (eight sets by another such helper: aberdeen_lagos_nurse_pidgin,
boston_cabo_verdean_student_kriolu, danang_cafe_family_group,
halifax_ns_band_teacher_terse_asked, lisbon_retired_tram_driver_dictation,
mumbai_chartered_accountant_letters, queensland_cattle_station_rambles,
tromso_trawler_crew_group: 424 statements, 63 updates, 47 corrections, 171 lines that state
nothing), run once on main at 7bada50 before any change it judges (``first_run``: 121/424 =
0.29, updates 1/63, corrections 7/47, right 117/180 = 0.65, nothing 165/171). A family group
chat in mixed English and Vietnamese scores 2/51 there. Unread. Then G50, a graph trained
on 1,501 new written lines (``s50_g50_run``: 123/424, updates 0/63, corrections 9/47, right
121/191, nothing 163/171: not shipped), and a relative's value in a terse answer given the
relative asked about (``s50_asked_run``: 122, right 118/181; shipped in a form that keeps
every pronoun's old reading, ``s50_asked_fixed_run``: every figure as main's), and a
relative's facts filed under their known name (blind50 as main; blind48 151/443, right
151/231, corrections 7/44; blind46 + blind47 365/1,013, right 351/505, corrections 24/82),
then also a relative of several (blind46 + blind47 right 351/504), a named person's value
said on (blind48 152, right 152/232), what a group chat says of "you" to a member called by
name (every figure as before), and a name-like value made of a clause refused with three
guards on the filing by name (blind48 153, right 153/232; blind46 + blind47 366, right
352/503). blind50 and blind49 stayed at their first runs through all of it. Two verifiers
refitted with a relative's readings judged as filed failed on blind50
(``s50_verifier_run``: 108/424; ``s50_verifier_066_run``: 113/424).
Session 51 added **blind51** (six sets by another such helper, fluent two-friend catch-up
chats with speakers, the facts said in passing: college_roommates_nurse_biologist,
community_garden_friends, firefighter_and_food_truck_friend, new_dad_and_old_bandmate,
ohio_arizona_retired_sisters, teachers_from_conference: 288 statements, 37 updates, 29
corrections, 135 lines that state nothing), run once on main at bc96c7e before any change
it judges (``first_run``: 57/288 = 0.20, updates 0/37, corrections 1/29, right 52/113 =
0.46, nothing 126/135): real chats' register, and the reader's weakest. Unread. Then G51,
a graph trained on 1,575 new written lines of such chats (``s51_g51_run``: 62/288,
corrections 2/29, right 58/122, nothing 126/135; shipped), G52, G42s trained as G51 with
1,525 more lines (``s51_g52_run``: 60/288, right 54/113; not shipped), and S52, the soup of
the two (``s51_s52_run``: 61/288, corrections 2/29, right 57/119, nothing 126/135; shipped).
Then **blind52** (six sets by a third helper: bath_yoga_teacher_and_former_student,
manchester_edinburgh_sisters_in_law, shropshire_postman_and_army_friend, two people
catching up; birmingham_developer_asks_assistant, cumbria_dairy_farm_mum_asks_assistant,
exeter_vet_nurse_asks_assistant, a person asking an assistant in long natural messages:
310 statements, 38 updates, 26 corrections, 140 lines that state nothing), run once on main
with G51 (73c7f4e) before G52 and S52 (``first_run``: 106/310 = 0.34, updates 2/38,
corrections 5/26, right 104/167 = 0.62, nothing 132/140; ``s51_g52_run``: 97/310, right
95/157; ``s51_s52_run``: 108/310, corrections 6/26, right 106/171, nothing 132/140).
Unread.
Then **blind53** (six sets by a fourth helper: pharmacist_and_old_flatmate_catch_up,
nz_sister_and_perth_brother, two people catching up; retired_canadian_grandpa_asks_assistant,
dublin_architect_asks_assistant, long requests to an assistant;
sydney_uni_student_texts_assistant, texas_mechanic_texts_assistant, short lowercase texting
with terse answers: 300 statements, 37 updates, 30 corrections, 138 lines that state
nothing), run once with S52 and one statement read twice shown once, before any change it
judges (``first_run``: 98/300 = 0.33, updates 6/37, corrections 7/30, right 99/182 = 0.54,
nothing 130/138). Unread. Then S53, the soup of G51, G52 and G52 with another seed
(``s51_s53_run``: 98/300, right 99/178, nothing 132/138; not shipped: the blind sets of
sessions 46-50 lost six facts).
Then **blind54** (six sets by a fifth helper: houston_atlanta_nurse_cousins_bursts,
texting in bursts; maine_montana_army_buddies_long_emails, long stories;
sg_perth_london_siblings_dad_70th_group, a family group chat;
toronto_accounting_junior_senior_dms, colleagues mixing work and life;
lisbon_british_designer_texts_assistant and cork_widowed_grandmother_polite_assistant,
people writing to an assistant over weeks: 389 statements, 42 updates, 27 corrections, 84
lines that state nothing), run once with S52 before any change it judges (``first_run``:
107/389 = 0.28, updates 5/42, corrections 4/27, right 100/173 = 0.58, nothing 78/84).
Unread. Then S54, the soup of G51, G52 and G54 (G54: 1,505 more written lines, chat54*),
shipped (``s52_s54_run``, also in blind52's and blind53's headers: 116/389, right 108/181,
nothing 78/84).
Then **blind55** (six sets by a sixth helper: glasgow_warehouse_supervisor_career_change and
nairobi_mother_family_paperwork_assistant, long requests to an assistant with background;
manila_nursing_student_semester_texts, terse answers to an assistant's questions;
melbourne_dating_app_match_weeks, new_apartment_block_neighbours_group and
ottawa_model_railway_forum_private_messages, people getting to know each other: 359
statements, 34 updates, 25 corrections, 89 lines that state nothing), run once with S54
before any change it judges (``first_run``: 129/359 = 0.36, updates 7/34, corrections
8/25, right 125/175 = 0.71, nothing 88/89). Unread. Then S55, the soup of G51, G52, G54
and G55 (1,519 more lines, chat55*; ``s52_s55_run``: 125/359, right 122/175; not shipped:
every blind set of sessions 51-52 lost facts).
Then **blind56** (six sets by a seventh helper: cardiff_paramedic_voice_notes_house_move,
denver_29yo_relationship_and_job_offer_advice and chennai_son_elderly_parents_admin, people
writing to an assistant; vancouver_dad_seoul_english_teacher_daughter,
dublin_bakery_new_colleagues_first_weeks and leeds_book_club_group_chat_news, people
talking to each other: 404 statements, 44 updates, 31 corrections, 83 lines that state
nothing), run once with S54 before any change it judges (``first_run``: 106/404 = 0.26,
updates 6/44, corrections 5/31, right 103/156 = 0.66, nothing 78/83). Unread. Then G56,
S54 continued one epoch with chat55 (``s52_g56_run``: 112/404, right 109/162), and S56,
the soup of S54 and G56 (``s52_s56_run``: 111/404, right 107/161); neither shipped (G56:
the older sets lost facts; S56: precision on the blind sets of sessions 46-50 fell 0.013).
Then **blind57** (six sets by an eighth helper: belfast_apprentice_sparky_texts_older_sister,
krakow_dublin_brothers_transcribed_voice_notes, devonport_karori_retired_nurses_year_of_emails
and bristol_harbourside_running_club_five_friends_group, people talking to each other;
toronto_paulistana_restaurant_owner_asks_assistant and
pune_manual_tester_to_sdet_terse_lowercase_asked, people writing to an assistant: 394
statements, 46 updates, 29 corrections, 85 lines that state nothing), run once with S54
(``first_run``: 90/394 = 0.23, updates 2/46, corrections 6/29, right 83/154 = 0.54,
nothing 81/85). Unread. Then S57, two thirds S54 and one third G55 (``s52_s57_run``:
84/394, right 77/150; not shipped: every blind set of sessions 51-52 lost facts).
Then **blind58** (six sets by a ninth helper: berlin_four_flatmates_cat_group,
joburg_maths_teacher_cape_town_chef_brother_whatsapp and kochi_dubai_cousins_manglish_bursts,
people talking to each other; iowa_farm_widower_learning_assistant,
phoenix_icu_night_nurse_task_requests and edinburgh_phd_reflective_term, people writing to
an assistant: 347 statements, 41 updates, 30 corrections, 87 lines that state nothing), run
once with S54 before any change it judges (``first_run``: 104/347 = 0.30, updates 6/41,
corrections 5/30, right 99/144 = 0.69, nothing 87/87). Unread. Then S58, the soup of G51,
G52 and G58 (1,529 more lines, chat58*, without chat55; ``s53_s58_run``: 104/347, right
98/141; not shipped: the older blind sets lost facts), and S58c, the same with the chat55
lines too (``s53_s58c_run``: 106/347, right 100/149; shipped).
Then **blind59** (six sets by a tenth helper:
brum_bus_driver_dad_aberdeen_student_daughter_term,
melbourne_five_cousins_yiayia_pappou_golden_anniversary_group and
bangalore_startup_designer_backend_dev_first_months_dms, people talking to each other;
dubai_cebuana_icu_nurse_visa_and_diabetes_asked, dublin_retired_garda_allotment_voice_typos_asked
and ohio_19yo_money_breakup_college_terse_asked, people writing to an assistant: 354
statements, 38 updates, 30 corrections, 81 lines that state nothing), run once with S58c
before any change it judges (``first_run``: 113/354 = 0.32, updates 6/38, corrections 6/30,
right 107/152 = 0.70, nothing 80/81). Unread. Then S59, the soup of G51, G52 and G59 (1,475
more lines, chat59*; ``s53_s59_run``: 112/354, right 106/150; not shipped: the older
blind sets lost facts).
Then **blind60** (six sets by an eleventh helper, session 54:
aberystwyth_teulu_family_group and norwich_locksmith_voice_dictation, a family's group chat
and a dictating tradesman; albuquerque_balloon_pilot_terse_asked,
izmir_kindergarten_teacher_second_language, nairn_retired_lighthouse_keeper_rambles and
wichita_bowling_alley_teen_lowercase, people writing to an assistant: 342 statements, 39
updates, 32 corrections, 87 lines that state nothing), run once with S58c before any change
it judges (``first_run``: 84/342 = 0.25, updates 5/39, corrections 2/32, right 83/174 =
0.48, nothing 85/87). Unread. Then session 54's rule changes (a bare "No, X" answers the
assistant's question; a text handed over to be translated and a sentence told as fiction
are no news; ``s54_run``): 84/342, right 83/172, nothing 85/87.
Its voices and topics appear nowhere in ``training/``. A line may carry ``asked``: the
assistant's message it answers, which becomes the turn before's assistant side.

Per set it prints:

- capture: stated facts found among the stored facts (any status);
- updates: changes whose new value is current, with the old value kept in history;
- corrections: the updates the user said as a correction ("no wait, ...");
- precision: stored facts that match what their turn said;
- nothing: sentences that state nothing and stored nothing.

A stored value says an expected one when it holds its words, or, since session 25, the
same date or number in other words ("12 March" stored as "March 12", "seventy three" as
73); ``--literal-judge`` compares words alone, as the figures before session 25 did.

    .venv/bin/python benchmarks/frozen_sets.py [--reader auto|rules|trained|tuned] [--show-misses]
        [--literal-judge]

`--dir` scores the sets of another folder in the same format: the development sets in
``benchmarks/data/reader_dev/`` (new voices, not frozen: their misses may be read and
thresholds chosen on them). `--manifest` reads with the tuned reader of another manifest
(a file anywhere, its graph beside it) beside the rules, and `--held-least` gives it another
bar for updates of held slots: candidates are compared on the development sets so.

    .venv/bin/python benchmarks/frozen_sets.py --dir benchmarks/data/reader_dev \
        [--only rancher_voice ...] [--manifest /tmp/candidate/reader_tuned.json] [--held-least 0.9]
"""

import argparse
import json
import re
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from threefold import Memory
from threefold.domain import Fact, FactStatus
from threefold.models.base import ExtractedFact, MemoryModel, TurnInput
from threefold.models.heuristic import READERS, HeuristicModel, build
from threefold.models.reader import FROZEN, TUNED, TrainedReader
from threefold.settings import ModelSettings

SETS = Path(__file__).parent / "data" / "reader_eval"
DEV_SETS = Path(__file__).parent / "data" / "reader_dev"
"""Development sets in the frozen sets' format, in voices used nowhere else: not frozen."""
GOALS = {"capture": 0.80, "updates": 0.80, "corrections": 0.85, "precision": 0.95, "nothing": 0.95}
START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
_GONE = (FactStatus.SUPERSEDED, FactStatus.RETRACTED)
_NEGATED = ("not ", "left ", "sold ")


@dataclass
class Score:
    statements: int = 0
    captured: int = 0
    updates: int = 0
    updated: int = 0
    corrections: int = 0
    corrected: int = 0
    stored: int = 0
    wrong: int = 0
    silent_lines: int = 0
    silent_kept: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: "Score") -> None:
        for name, value in vars(other).items():
            if isinstance(value, int):
                setattr(self, name, getattr(self, name) + value)

    def add_chat(self, other: "Score") -> None:
        """Counts and misses of one more conversation of the same set."""
        self.add(other)
        self.misses += other.misses


class SetFormatError(ValueError):
    """A set's line that is not a JSON object with a ``user`` text (names file and line)."""


def load(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rows = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text.strip():
            rows.append(_parsed(path, number, text))
    header = rows[0] if rows and rows[0].get("header") else {}
    return header, rows[1:] if header else rows


def json_object(where: str, text: str, error: type[ValueError]) -> dict[str, Any]:
    """One line of a set's file as a JSON object; else `error`, naming `where`."""
    try:
        row = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{where}: not JSON ({exc.msg})") from None
    if not isinstance(row, dict):
        raise error(f"{where}: not a JSON object")
    return row


def _parsed(path: Path, number: int, text: str) -> dict[str, Any]:
    row = json_object(f"{path}:{number}", text, SetFormatError)
    if not row.get("header") and not isinstance(row.get("user"), str):
        raise SetFormatError(f"{path}:{number}: no 'user' text")
    for expect in row.get("expects", ()):
        if not isinstance(expect, dict) or not {"category", "value"} <= expect.keys():
            raise SetFormatError(f"{path}:{number}: an expect without category and value")
    return row


def feed(mem: Memory, stream: str, lines: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Add every line as a turn, each answering the assistant message it was asked in, at
    the line's ``at`` when a caller gives one (LoCoMo's session times; the JSON sets have
    none), else six hours after the line before."""
    by_turn: dict[int, dict[str, Any]] = {}
    if lines and lines[0].get("asked"):
        mem.add_turn(stream, user="Hi.", assistant=lines[0]["asked"], at=START)
    for n, line in enumerate(lines):
        at = line.get("at") or START + timedelta(hours=6 * (n + 1))
        after = lines[n + 1].get("asked", "") if n + 1 < len(lines) else ""
        extra = {"speaker": line["speaker"]} if line.get("speaker") else {}
        turn = mem.add_turn(stream, user=line["user"], assistant=after, at=at, **extra)
        by_turn[turn.id] = line
    mem.process_pending()
    return by_turn


def _holds(found: Fact, expect: dict[str, Any]) -> bool:
    return (
        found.subject == expect.get("subject", "user")
        and found.category.value == expect["category"]
        and _says(found.value, expect["value"])
    )


def _asserts(found: Fact, old: str, new: str) -> bool:
    value = found.value.lower()
    return _says(value, old) and not _says(value, new) and not value.startswith(_NEGATED)


JUDGE_WORDS = Path(__file__).parent / "data" / "judge_words.json"
BY_MEANING = True
"""The judge reads dates and numbers by meaning ("12 March" is the "March 12" stored,
"seventy three" the 73); False (--literal-judge): by the words alone, as before session
25, for figures comparable with earlier runs."""


def _says(value: str, expected: str) -> bool:
    """Whether a stored `value` says the `expected` one: its words, or, by meaning, the
    same date or number in other words."""
    if expected.lower() in value.lower():
        return True
    return BY_MEANING and f" {_meaning(expected)} " in f" {_meaning(value)} "


@cache
def _judge_words() -> dict[str, Any]:
    raw = json.loads(JUDGE_WORDS.read_text(encoding="utf-8"))
    numbers = {w: str(n) for n, w in enumerate(raw["units"])}
    numbers |= {w: str(n) for n, w in enumerate(raw["ordinals"])}
    numbers |= {w: str(20 + 10 * n) for n, w in enumerate(raw["ordinal_tens"])}
    months = {m: m for m in raw["months"]} | raw["month_abbreviations"]
    tens = {w: 20 + 10 * n for n, w in enumerate(raw["tens"])}
    return {"numbers": numbers, "tens": tens, "months": months}


def _meaning(text: str) -> str:
    """`text` with its numbers in digits and a date as "month day": "the twelfth of
    March" and "12th March" are "march 12", "seventy-three" is "73"."""
    table = _judge_words()
    words: list[str] = []
    for word in re.findall(r"[a-z]+|\d+", text.lower()):
        word = table["months"].get(word, table["numbers"].get(word, word))
        if word in ("st", "nd", "rd", "th") and words and words[-1].isdigit():
            continue  # "21st": the day
        if word.isdigit() and words and words[-1] in table["tens"] and int(word) < 10:
            words[-1] = str(table["tens"][words[-1]] + int(word))
            continue
        words.append(word)
    words = [str(table["tens"][w]) if w in table["tens"] else w for w in words]
    return _month_first(words, set(table["months"].values()))


def _month_first(words: list[str], months: set[str]) -> str:
    """Words with a day said before its month ("12 of march") or with "the" between
    ("march the 8") as "march 12", "march 8"."""
    month = "|".join(sorted(months))
    text = " ".join(words)
    text = re.sub(rf"\b(?:the )?(\d{{1,2}}) (?:of )?({month})\b", r"\2 \1", text)
    return re.sub(rf"\b({month}) the (\d{{1,2}})\b", r"\1 \2", text)


def _score_expect(stored: list[Fact], expect: dict[str, Any], text: str, score: Score) -> None:
    score.statements += 1
    if any(_holds(f, expect) for f in stored):
        score.captured += 1
    else:
        score.misses.append(f"missed: {expect['category']} {expect['value']!r} in {text!r}")
    if "old" not in expect:
        return
    old, new = expect["old"].lower(), expect["value"].lower()
    same = [
        f
        for f in stored
        if f.subject == expect.get("subject", "user") and f.category.value == expect["category"]
    ]
    current = any(f.active and _holds(f, expect) for f in stored)
    kept = any(f.status in _GONE and _asserts(f, old, new) for f in same)
    stale = any(f.active and _asserts(f, old, new) for f in same)
    right = current and kept and not stale
    is_correction = bool(expect.get("correction"))
    score.corrections += is_correction
    score.corrected += is_correction and right
    score.updates += not is_correction
    score.updated += not is_correction and right
    if not right:
        what = "stale" if stale else "not current" if not current else "old value lost"
        score.misses.append(f"change {what}: {old!r} -> {new!r} in {text!r}")


class TrainedAlone(HeuristicModel):
    """The trained reader without the rules, to measure what each adds."""

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        assert self.reader is not None
        return self.reader.extract_facts(turn)


def manifest_at(where: str | Path) -> tuple[Path, str]:
    """(folder, name) of a reader manifest: a file's path, or a name in the shipped data."""
    path = Path(where)
    if path.parent != Path(".") or path.is_file():
        return path.parent, path.name
    from threefold.models.reader import DATA

    return DATA, path.name


def reader_model(
    reader: str, manifest: str | Path | None = None, held_least: float | None = None
) -> MemoryModel:
    """The heuristic model with the reader `reader`: one of READERS, or trained-alone or
    tuned-alone (the reader without the rules). With `manifest` (manifest_at) or
    `held_least`, the tuned reader of that manifest with that held-slot bar beside the
    rules, whatever `reader` says."""
    if manifest is not None or held_least is not None:
        folder, name = manifest_at(manifest or TUNED)
        return HeuristicModel(
            TrainedReader(folder=folder, manifest=name, held_least=held_least), required=True
        )
    if reader in ("trained-alone", "tuned-alone"):
        manifest = TUNED if reader == "tuned-alone" else FROZEN
        return TrainedAlone(TrainedReader(manifest=manifest).load())
    return build(ModelSettings(options={"reader": reader}))


def chats(path: Path) -> dict[str, list[dict[str, Any]]]:
    """The set's lines by conversation: a line's ``chat`` names its own (one stream each);
    a file without them is one conversation."""
    _, lines = load(path)
    found: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        found.setdefault(str(line.get("chat", path.stem)), []).append(line)
    return found


def score_set(path: Path, model: MemoryModel) -> Score:
    score = Score()
    for name, lines in chats(path).items():
        score.add_chat(score_chat(f"chat:{name}", lines, model))
    return score


def score_chat(stream: str, lines: list[dict[str, Any]], model: MemoryModel) -> Score:
    """The score of what a fresh memory stores from one conversation's lines (`stream`)."""
    score = Score()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "frozen.db"
        with Memory.open(db, model=model, embedder=None, background_worker=False) as mem:
            by_turn = feed(mem, stream, lines)
            stored = mem.facts(stream, include_inactive=True)
    for line in lines:
        for expect in line.get("expects", ()):
            _score_expect(stored, expect, line["user"], score)
    from_turn: dict[int, list[Fact]] = {}
    for found in stored:
        line = by_turn.get(int(found.source.id)) if found.source.kind == "turn" else None
        score.stored += 1
        if line is None or not any(_holds(found, e) for e in line.get("expects", ())):
            score.wrong += 1
            origin = line["user"][:80] if line else found.source.label()
            score.misses.append(f"false: {found.text!r} ({found.subject}, {found.slot}) {origin!r}")
        if found.source.kind == "turn":
            from_turn.setdefault(int(found.source.id), []).append(found)
    for turn_id, line in by_turn.items():
        if line.get("nothing"):
            score.silent_lines += 1
            score.silent_kept += turn_id not in from_turn
    return score


def _rate(part: int, whole: int) -> str:
    return f"{part / whole:.2f}" if whole else "  - "


def row(name: str, s: Score) -> str:
    return (
        f"{name:<18} {s.statements:>5} {_rate(s.captured, s.statements):>7} "
        f"{s.updates:>3} {_rate(s.updated, s.updates):>7} "
        f"{s.corrections:>3} {_rate(s.corrected, s.corrections):>7} "
        f"{s.stored:>6} {_rate(s.stored - s.wrong, s.stored):>9} "
        f"{s.silent_lines:>3} {_rate(s.silent_kept, s.silent_lines):>7}"
    )


def set_paths(folder: Path, skip: tuple[str, ...] = (), only: tuple[str, ...] = ()) -> list[Path]:
    """The sets of `folder`, less `skip`, and only `only` when it names any."""
    paths = [p for p in sorted(folder.glob("*.jsonl")) if p.stem not in skip]
    unknown = set(only) - {p.stem for p in paths}
    if unknown:
        raise SystemExit(f"no such set in {folder}: {', '.join(sorted(unknown))}")
    return [p for p in paths if not only or p.stem in only]


def run(
    reader: str,
    show_misses: bool,
    skip: tuple[str, ...] = (),
    folder: Path = SETS,
    only: tuple[str, ...] = (),
    manifest: str | Path | None = None,
    held_least: float | None = None,
) -> dict[str, Score]:
    model = reader_model(reader, manifest, held_least)
    paths = set_paths(folder, skip, only)
    scores = {path.stem: score_set(path, model) for path in paths}
    what = f"manifest {manifest or TUNED}" if manifest or held_least is not None else reader
    if held_least is not None:
        what += f", held-least {held_least}"
    if folder.resolve() == SETS.resolve():
        print(f"frozen reader sets, reader {what} (blind: first runs in each file's header)")
    else:
        print(f"reader sets in {folder}, reader {what} (development: not blind)")
    print_table(scores, show_misses)
    print("goals: " + ", ".join(f"{k} >= {v}" for k, v in GOALS.items()))
    return scores


def counts(s: Score) -> str:
    """All sets' row as counts: comparing two readers needs more than two decimals."""
    return (
        f"counts: captured {s.captured}/{s.statements}, updated {s.updated}/{s.updates}, "
        f"corrected {s.corrected}/{s.corrections}, right {s.stored - s.wrong}/{s.stored}, "
        f"nothing {s.silent_kept}/{s.silent_lines}"
    )


def print_table(scores: dict[str, Score], show_misses: bool) -> None:
    """Each set's row, all sets' row, and with `show_misses` every miss."""
    print(
        f"{'set':<18} {'stmts':>5} {'capture':>7} {'n':>3} {'updates':>7} {'n':>3} "
        f"{'correct':>7} {'stored':>6} {'precision':>9} {'n':>3} {'nothing':>7}"
    )
    total = Score()
    for name, s in scores.items():
        print(row(name, s))
        total.add(s)
    print(row("all", total))
    print(counts(total))
    if show_misses:
        for name, s in scores.items():
            for miss in s.misses:
                print(f"  [{name}] {miss}")


def reader_options(parser: argparse.ArgumentParser) -> None:
    """The options of the reader and the judge, shared with locomo_facts.py."""
    parser.add_argument("--show-misses", action="store_true", help="list every miss")
    parser.add_argument(
        "--reader", choices=[*READERS, "trained-alone", "tuned-alone"], default="auto"
    )
    parser.add_argument("--manifest", help="a tuned reader's manifest: a path, or a shipped name")
    parser.add_argument(
        "--literal-judge",
        action="store_true",
        help="compare values by their words alone, not dates and numbers by meaning",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    reader_options(parser)
    parser.add_argument("--skip", nargs="*", default=(), help="names of sets to leave out")
    parser.add_argument("--only", nargs="*", default=(), help="names of the sets to run")
    parser.add_argument("--dir", type=Path, default=SETS, help="the folder of sets to score")
    parser.add_argument("--held-least", type=float, help="the tuned reader's held-slot bar")
    args = parser.parse_args()
    global BY_MEANING
    BY_MEANING = not args.literal_judge
    try:
        run(
            args.reader,
            args.show_misses,
            tuple(args.skip),
            args.dir,
            tuple(args.only),
            args.manifest,
            args.held_least,
        )
    except SetFormatError as exc:
        raise SystemExit(str(exc)) from None


if __name__ == "__main__":
    main()
