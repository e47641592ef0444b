"""Word lists behind the personal-fact table: relations, jobs, conditions, things people use.

A value is only taken when a list vouches for it, where the sentence alone cannot tell
"I have asthma" from "I have a meeting".
"""

import re
from collections.abc import Iterable

from threefold.models.heuristic.text import wordset
from threefold.models.heuristic.word_lists import word_lists

_RELATION_WORDS = word_lists("relation_words.json")
UNIQUE_RELATIONS: dict[str, str] = dict(_RELATION_WORDS["one_at_a_time"])
"""Relations a person has one of at a time, by their words: a new one supersedes ("my
manager is now Tom"), and the slot is the place in their life (data/relation_words.json)."""
_UNNAMED_FAMILY = frozenset(_RELATION_WORDS["unnamed_family"])
MANY_RELATIONS: dict[str, str] = {
    **_RELATION_WORDS["several"],
    **dict.fromkeys(_RELATION_WORDS["dog_breeds"], "dog"),
}
"""Relations a person may have several of, by their words: each named one is its own slot."""
RELATIONS = {**UNIQUE_RELATIONS, **MANY_RELATIONS}
_PET_KINDS = frozenset(_RELATION_WORDS["pet_kinds"])


def _any_of(words: Iterable[str]) -> str:
    """A pattern for any of `words`, longest first, their spaces any run of spaces."""
    return "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True)
    )


_PET_WORDS = tuple(word for word in RELATIONS if RELATIONS[word] in _PET_KINDS)
PET_RE = _any_of(_PET_WORDS)
UNNAMED_KEYED = _UNNAMED_FAMILY | frozenset(_PET_WORDS)
"""Relations whom "my sister" or "my dog" unnamed mostly means one of: the facts are the
user's sister's, the user's dog's."""
_MOURNED = frozenset(_RELATION_WORDS["mourned_kinds"]) | _PET_KINDS
MOURNED_RE = _any_of(word for word in RELATIONS if RELATIONS[word] in _MOURNED)
"""Relation words whose loss is a death: "I lost my mum", "we lost our dog"."""
RELATION_RE = _any_of(RELATIONS)

# Head nouns of a job title ("senior data engineer", "ICU nurse").
JOB_HEADS = wordset(
    """architect manager pm cto ceo cfo coo vp director lead head engineer designer
    developer dev devops sre swe sde analyst scientist administrator admin founder cofounder
    co-founder officer coordinator specialist advisor consultant recruiter intern
    strategist editor researcher tester accountant lawyer attorney paralegal teacher nurse
    doctor physician surgeon dentist pharmacist programmer professor lecturer student chef
    cook baker barista waiter waitress bartender driver pilot mechanic electrician plumber
    carpenter artist painter musician writer author journalist photographer counselor
    counsellor therapist psychologist worker firefighter farmer librarian cashier clerk
    salesperson marketer nanny caregiver veterinarian vet paramedic technician
    entrepreneur freelancer contractor translator tutor coach trainer owner principal
    supervisor assistant representative rep executive associate partner economist
    statistician mathematician physicist chemist biologist historian producer animator
    illustrator copywriter planner agent broker banker trader auditor instructor
    professional practitioner midwife therapist dietitian nutritionist inspector surveyor
    investigator detective soldier sergeant lieutenant captain pastor priest rabbi imam
    chaplain janitor cleaner housekeeper receptionist secretary courier dispatcher welder
    machinist miner fisherman builder roofer gardener landscaper florist butcher tailor
    hairdresser barber stylist actor actress dancer singer comedian athlete referee ranger
    guard cop policeman policewoman sheriff judge diplomat politician councillor councilor
    senator mayor optometrist chiropractor physiotherapist physio osteopath hygienist
    sonographer phlebotomist carer doula sysadmin dba steward stewardess attendant
    conductor postman mailman trucker chauffeur teller underwriter actuary adjuster
    appraiser realtor homemaker apprentice trainee postdoc undergrad academic dean curator
    archivist interpreter publisher blogger youtuber streamer podcaster filmmaker
    cinematographer composer sommelier brewer winemaker rancher zookeeper groomer
    seamstress dressmaker porter sailor vicar marine airman gp radiographer
    anaesthetist anesthetist radiologist psychiatrist paediatrician pediatrician dj servant
    solicitor barrister"""
)
# Heads written as one word with what they work on or in: "schoolteacher", "bookkeeper",
# "locksmith", "cardiologist". The stem is three letters or more, so "coworker" is none.
COMPOUND_JOB_RE = (
    r"[a-z]{3,}(?:ologist|iatrist|ician|ographer|ologer|teacher|writer|keeper|smith|master"
    r"|broker|worker|fighter|builder|painter)"
)
JOB_HEAD_RE = "|".join([*map(re.escape, sorted(JOB_HEADS, key=len, reverse=True)), COMPOUND_JOB_RE])

# Conditions worth remembering for someone's care; "has {X}" reads as health only for these.
CONDITIONS = (
    r"(?:type\s+[12]\s+)?diabetes|asthma|adhd|add|autism|dyslexia|migraines?|epilepsy"
    r"|(?:rheumatoid\s+)?arthritis|high\s+blood\s+pressure|hypertension|anxiety|depression"
    r"|insomnia|sleep\s+apnea|celiac(?:\s+disease)?|coeliac(?:\s+disease)?|crohn'?s"
    r"|(?:crohn'?s|lyme|celiac)\s+disease|ibs|psoriasis|eczema|tinnitus|long\s+covid"
    r"|an?\s+(?:bad|dodgy|weak|gammy|dicky|sore|injured|wonky|troublesome)\s+(?:left\s+|right\s+)?"
    r"(?:back|knee|hip|shoulder|ankle|wrist|elbow|neck)|(?:chronic\s+)?back\s+pain"
    r"|a\s+heart\s+condition"
    r"|ptsd|ocd|bipolar(?:\s+disorder)?|multiple\s+sclerosis|ms|cancer|fibromyalgia"
    r"|a\s+(?:gluten|peanut|nut)\s+sensitivity|gout|vertigo|scoliosis|lupus|anemia"
    r"|hypothyroidism|a\s+pacemaker|chronic\s+fatigue(?:\s+syndrome)?|macular\s+degeneration"
    r"|glaucoma|cataracts|osteoporosis|parkinson'?s(?:\s+disease)?|alzheimer'?s(?:\s+disease)?"
    r"|dementia|copd|endometriosis|pcos|sciatica|heart\s+disease|kidney\s+disease"
    r"|(?:a\s+)?(?:heart\s+)?arrhythmia|afib|atrial\s+fibrillation|a\s+heart\s+murmur"
    r"|high\s+cholesterol|low\s+blood\s+pressure|an?\s+(?:under|over)active\s+thyroid"
)
HEALTH_STATES = (
    r"diabetic|asthmatic|epileptic|pregnant|colou?r[\s-]*blind|deaf|hard\s+of\s+hearing"
    r"|blind|autistic|dyslexic|anemic|immunocompromised|in\s+remission|coeliac|celiac"
    r"|type\s+[12]\s+diabetic"
)
DIETS = (
    r"vegetarian|vegan|pescatarian|pescetarian|flexitarian|keto|paleo|carnivore"
    r"|gluten-free|gluten\s+free|dairy-free|dairy\s+free|kosher|halal|plant-based"
    r"|low-carb|low\s+carb|raw\s+vegan|sober|teetotal|a\s+teetotaler"
)
# Lines of work one moves into: "I moved into data engineering", "went into nursing".
CAREER_FIELDS = (
    r"engineering|management|marketing|sales|design|research|consulting|finance|nursing"
    r"|teaching|science|analytics|product|ux|hr|recruiting|recruitment|law|medicine"
    r"|journalism|accounting|devops|security|tech|academia|education|healthcare|banking"
    r"|insurance|publishing|advertising|pr|policy|politics|government|retail|hospitality"
    r"|construction|logistics|operations|ops|development|support|qa|testing|real\s+estate"
    r"|cyber\s*security|software|fintech|pharma|biotech|media|fashion|music|film|tv"
)
# Subjects taken at school or university: "I'm taking maths, physics and computer science".
SCHOOL_SUBJECTS = (
    r"(?:further\s+)?maths?|mathematics|physics|chemistry|biology|history|geography"
    r"|english(?:\s+(?:literature|language|lit))?|french|spanish|german|latin|italian|mandarin"
    r"|economics|psychology|sociology|philosophy|computer\s+science|computing|comp\s+sci"
    r"|statistics|stats|calculus|politics|government|law|art|music|drama|media\s+studies"
    r"|business(?:\s+studies)?|accounting|religious\s+studies|classics|engineering"
)
# School-leaving exams: "doing my A levels", "my GCSEs are in May".
SCHOOL_EXAMS = (
    r"a[\s-]?levels?|as[\s-]levels?|i?gcses?|highers|(?:the\s+)?ib(?:\s+diploma)?"
    r"|leaving\s+cert(?:ificate)?|(?:the\s+)?baccalaureate|btecs?|ap\s+(?:exams|classes)"
)
RELIGIONS = (
    r"muslim|christian|catholic|protestant|jewish|hindu|buddhist|sikh|jain|mormon|orthodox"
    r"|evangelical|baptist|methodist|lutheran|anglican|quaker|atheist|agnostic|pagan|bahá'í"
    r"|baha'i|shinto|taoist|zoroastrian|rastafarian"
)
# Medicines people say they are on: "I'm on blood thinners"; "I'm on holiday" is none.
MEDICATIONS = (
    r"blood\s+thinners|insulin|statins|antidepressants|ssris|beta[\s-]blockers|the\s+pill"
    r"|birth\s+control|hrt|chemo(?:therapy)?|steroids|warfarin|lithium|methotrexate|metformin"
    r"|levothyroxine|adderall|ritalin|prednisone|immunosuppressants|antibiotics|painkillers"
    r"|(?:blood\s+pressure|anxiety|thyroid|adhd|heart)\s+(?:meds|medication|pills|tablets)"
)
# A drug by its name's ending ("citalopram", "ramipril", "atorvastatin") or by its dose
# ("20mg of citalopram", "Keppra 500mg").
_DRUG_ENDINGS = (
    r"pram|oxetine|xetine|olol|pril|sartan|statin|azole|cillin|mycin|cycline|formin|glutide"
    r"|gliflozin|lukast|thyroxine|zepam|zolam|tidine|triptan|afil|profen|codone|dronate"
    r"|ipine|odipine|azepine|olone|asone|etamol|amol|tamine|faxine|azine|oxin|parin|xaban"
    r"|gatran|pine|lamide|semide|thiazide"
)
DOSE = r"\d+(?:\.\d+)?\s?(?:mg|mcg|µg|g|ml|iu|units)\b"
DRUG_NAME = rf"[a-z][a-z-]{{2,}}(?:{_DRUG_ENDINGS})\b"
DOSED_DRUG = (
    rf"(?:{DOSE}\s+(?:of\s+)?(?:[\w-]+\s+)??[\w-]+|(?:{DRUG_NAME}|(?-i:[A-Z])[\w-]+)\s+{DOSE}"
    rf"|{DRUG_NAME})"
)
# Regular appointments of one's own life: "I have therapy every Tuesday".
ROUTINES = (
    r"therapy|physio|physiotherapy|counsell?ing|dialysis|chemo|lessons?|classes|class|practice"
    r"|training|rehearsals?|choir|book\s+club|tutoring|church|mass|appointments?|check-?ups?"
    r"|yoga|pilates|spin|zumba|karate|judo|ballet"
)
TIME_ZONES = (
    r"pacific|eastern|central|mountain|atlantic|alaska|hawaii|gmt|utc|bst|cet|cest|ist|jst"
    r"|aest|aedt|nzst|pst|est|cst|mst|pt|et|ct|mt"
)
# Lasting fears people tell an assistant about; a worry of the day ("afraid of missing the
# bus") is none of these.
FEARS = (
    r"heights|spiders|snakes|flying|needles|injections|the\s+dark|deep\s+water|open\s+water"
    r"|water|clowns|crowds|public\s+speaking|bees|wasps|lifts|elevators|escalators|blood"
    r"|dentists|doctors|hospitals|driving|birds|mice|rats|insects|bugs|moths|cockroaches"
    r"|thunder|storms|germs|vomiting|small\s+spaces|enclosed\s+spaces|dogs|horses|cats"
    r"|sharks|the\s+(?:sea|ocean)|bridges|tunnels|fire"
)
MARITAL_STATUSES = r"single|married|divorced|separated|widowed|engaged|remarried"
# What someone relies on to get around, hear or manage a condition: health, not a gadget.
AIDS = (
    r"(?:(?:electric|manual|power)\s+)?wheelchair|walker|cane|crutches|walking\s+stick"
    r"|hearing\s+aids?|cochlear\s+implant|insulin\s+pump|(?:continuous\s+)?glucose\s+monitor"
    r"|cgm|cpap(?:\s+machine)?|inhaler|epipen|guide\s+dog|service\s+dog|prosthetic(?:\s+\w+)?"
    r"|mobility\s+scooter|screen\s+reader|oxygen(?:\s+tank)?|pacemaker|colostomy\s+bag"
)
# Personal events that have a day: "my thesis defence is on March 14".
EVENTS = (
    r"defen[cs]e|viva|wedding|interview|surgery|operation|appointment|exam|exams|test|graduation"
    r"|flight|due\s+date|recital|presentation|audition|hearing|court\s+date|procedure|scan"
    r"|check-?up|moving\s+day|move|race|marathon|ceremony|party|trip|vacation|holiday|concert"
    r"|performance|visa\s+appointment|driving\s+test|job\s+interview"
)
FOODS_TO_AVOID = (
    r"meat|red\s+meat|pork|beef|chicken|(?:raw\s+)?fish|raw\s+meat|raw\s+eggs|sushi|seafood"
    r"|shellfish|dairy|gluten|eggs?|nuts"
    r"|peanuts|sugar|alcohol|coffee|caffeine|spicy\s+food|soy|wheat|lactose|mushrooms"
    r"|onions|garlic|carbs|fried\s+food|sweets|processed\s+food|junk\s+food|cheese|milk"
)

LANGUAGES = wordset(
    """english spanish german french italian portuguese dutch japanese chinese mandarin
    cantonese korean russian hindi polish arabic turkish swedish norwegian danish finnish
    greek hebrew czech hungarian romanian ukrainian vietnamese thai indonesian tagalog
    bengali urdu punjabi tamil swahili persian farsi catalan basque croatian serbian irish
    welsh asl malayalam telugu kannada marathi gujarati nepali sinhala burmese khmer lao
    malay mongolian kazakh uzbek armenian georgian azerbaijani albanian bulgarian slovak
    slovenian lithuanian latvian estonian icelandic afrikaans zulu xhosa yoruba igbo hausa
    amharic somali tigrinya pashto dari kurdish maori samoan tongan latin esperanto yiddish
    galician maltese bosnian macedonian belarusian cebuano hmong quechua guarani creole"""
)
NATIONALITIES = wordset(
    """american british english scottish welsh irish canadian australian german french
    italian spanish portuguese dutch belgian swiss austrian swedish norwegian danish finnish
    polish czech greek turkish russian ukrainian indian pakistani chinese japanese korean
    vietnamese thai filipino indonesian brazilian mexican argentinian colombian chilean
    peruvian nigerian kenyan egyptian moroccan israeli iranian lebanese malaysian
    singaporean bangladeshi nepali ghanaian ethiopian jamaican cuban venezuelan ecuadorian
    bolivian uruguayan dominican haitian emirati saudi jordanian syrian iraqi afghan
    hungarian romanian bulgarian serbian croatian slovenian slovak bosnian albanian
    lithuanian latvian estonian icelandic maltese cypriot taiwanese mongolian armenian
    georgian tunisian algerian sudanese somali ugandan tanzanian zimbabwean cameroonian
    senegalese"""
)

PROGRAMMING = (
    "python",
    "go",
    "golang",
    "rust",
    "java",
    "kotlin",
    "typescript",
    "javascript",
    "c#",
    "c++",
    "ruby",
    "elixir",
    "scala",
    "swift",
    "php",
    "haskell",
    "clojure",
    "r",
    "julia",
    "sql",
    "c",
    "dart",
    "lua",
    "perl",
    "zig",
    "ocaml",
    "f#",
    "matlab",
)
SKILLS = (
    *PROGRAMMING,
    "react",
    "vue",
    "angular",
    "django",
    "flask",
    "rails",
    "spring",
    "kubernetes",
    "docker",
    "terraform",
    "aws",
    "excel",
    "photoshop",
    "figma",
    "blender",
    "machine learning",
    "data analysis",
    "statistics",
    "sql",
    "spark",
    "pandas",
    "linux",
    "git",
    "accounting",
    "pottery",
    "knitting",
    "woodworking",
    "photography",
    "calligraphy",
    "carpentry",
    "welding",
    "sewing",
    "baking",
    "first aid",
    "cpr",
    "sign language",
)
NAMED_INSTRUMENTS_AND_SPORTS = (
    r"(?:the\s+)?(?:guitar|bass|piano|keyboard|violin|viola|cello|drums|flute|saxophone|sax"
    r"|trumpet|clarinet|ukulele|harp|banjo|accordion|harmonica)|tennis|soccer|football"
    r"|basketball|baseball|golf|chess|volleyball|badminton|hockey|rugby|cricket|squash"
    r"|table\s+tennis|ping\s+pong|pickleball|padel|poker|bridge"
)
# What one plays may be any "the" noun ("the oboe"); what one stops is only a named one,
# since "I quit the cafe" leaves a job.
INSTRUMENTS_AND_SPORTS = NAMED_INSTRUMENTS_AND_SPORTS + r"|the\s+\w+"


THING_KINDS: dict[str, tuple[str, ...]] = {
    kind: tuple(names)
    for kind, names in word_lists("thing_kinds.json").items()
    if not kind.endswith("_doc")
}
"""Things people own or use (data/thing_kinds.json): brand and product words by the kind
they name, a tool (used, "as their editor") or a possession (owned, "has a Honda")."""
