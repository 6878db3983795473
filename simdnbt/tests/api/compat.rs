//! Upstream-style user code: what a crate written against simdnbt 0.10 does,
//! written here (not copied) so that it keeps compiling and passing. Upstream's
//! README examples, examples in the style of its `hypixel` and `registry`
//! examples with the derive, the patterns crates depending on 0.10 use, and
//! round trips of derived structs through both writers.
#![allow(unused_must_use)] // upstream's `write` returns `()`; ours a `Result`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Cursor;

use simdnbt::owned::{BaseNbt, Nbt, NbtCompound, NbtList, NbtTag};
use simdnbt::{Deserialize, DeserializeErrorKind, FromNbtTag, Serialize, ToNbtTag};

// ---------------------------------------------------------------------------
// Upstream's README examples.

fn readme_skyblock_id(item_bytes: &[u8]) -> String {
    let nbt = simdnbt::borrow::read(&mut Cursor::new(item_bytes))
        .unwrap()
        .unwrap();
    let skyblock_id: Cow<str> = nbt
        .list("i")
        .and_then(|i| i.compounds())
        .and_then(|i| i.first())
        .and_then(|i| i.compound("tag"))
        .and_then(|tag| tag.compound("ExtraAttributes"))
        .and_then(|ea| ea.string("id"))
        .map(|id| id.to_string_lossy())
        .unwrap_or_default();
    skyblock_id.into_owned()
}

fn readme_serialize() -> Vec<u8> {
    let nbt = Nbt::Some(BaseNbt::new(
        "",
        NbtCompound::from_values(vec![("key".into(), NbtTag::String("value".into()))]),
    ));
    let mut buffer = Vec::new();
    nbt.write(&mut buffer);
    buffer
}

#[test]
fn readme_examples() {
    let bytes = readme_serialize();
    let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
        .unwrap()
        .unwrap();
    assert_eq!(nbt.string("key").unwrap().to_str(), "value");
    assert_eq!(readme_skyblock_id(&bytes), "");

    let item = Item::sample(7);
    let base = Base {
        items: vec![Some(item), None],
    };
    let mut bytes = Vec::new();
    base.to_nbt().write(&mut bytes);
    assert_eq!(readme_skyblock_id(&bytes), "ITEM_7");
}

// ---------------------------------------------------------------------------
// In the style of upstream's `hypixel` example: an inventory, with renames,
// optional fields, a HashMap, an owned compound and `Vec<Option<T>>`.

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Item {
    pub id: i16,
    #[simdnbt(rename = "Damage")]
    pub damage: i16,
    #[simdnbt(rename = "Count")]
    pub count: i8,
    pub tag: ItemTag,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ItemTag {
    #[simdnbt(rename = "SkullOwner")]
    pub skull_owner: Option<SkullOwner>,
    #[simdnbt(rename = "ExtraAttributes")]
    pub extra_attributes: ExtraAttributes,
    pub display: ItemDisplay,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ExtraAttributes {
    pub id: Option<String>,
    pub modifier: Option<String>,
    pub ench: Option<NbtCompound>,
    pub enchantments: Option<HashMap<String, i32>>,
    pub timestamp: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SkullOwner {
    pub properties: Properties,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Properties {
    pub textures: Vec<Texture>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Texture {
    #[simdnbt(rename = "Value")]
    pub value: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ItemDisplay {
    #[simdnbt(rename = "Name")]
    pub name: String,
    #[simdnbt(rename = "Lore")]
    pub lore: Vec<String>,
    pub color: Option<i32>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Base {
    #[simdnbt(rename = "i")]
    pub items: Vec<Option<Item>>,
}

impl Item {
    fn sample(n: i16) -> Self {
        Item {
            id: 397,
            damage: n,
            count: 1,
            tag: ItemTag {
                skull_owner: (n % 2 == 1).then(|| SkullOwner {
                    properties: Properties {
                        textures: vec![Texture {
                            value: format!("texture {n}"),
                        }],
                    },
                }),
                extra_attributes: ExtraAttributes {
                    id: Some(format!("ITEM_{n}")),
                    modifier: None,
                    ench: Some(NbtCompound::from_values(vec![(
                        "sharpness".into(),
                        NbtTag::Short(5),
                    )])),
                    enchantments: Some(HashMap::from([("looting".to_string(), 3)])),
                    timestamp: (n > 2).then(|| "1/1/24 12:00 PM".to_string()),
                },
                display: ItemDisplay {
                    name: format!("§6Item {n}"),
                    lore: vec!["§7line one".into(), "line 😀 two".into()],
                    color: (n == 4).then_some(0x00ff_00ff),
                },
            },
        }
    }
}

/// Writes `value` with the owned writer, reads it with the borrow reader, and
/// checks that the borrow writer gives the same bytes and the value reads back.
fn round_trip<T: Serialize + Deserialize + Clone + PartialEq + std::fmt::Debug>(value: &T) {
    let mut owned_bytes = Vec::new();
    value.clone().to_nbt().write(&mut owned_bytes).unwrap();
    let doc = simdnbt::borrow::read(&mut Cursor::new(&owned_bytes[..]))
        .unwrap()
        .unwrap();
    let mut borrow_bytes = Vec::new();
    doc.write(&mut borrow_bytes);
    assert_eq!(
        borrow_bytes, owned_bytes,
        "both writers give the same bytes"
    );
    assert_eq!(&T::from_nbt(&doc).unwrap(), value);
    // And through the owned reader and the unnamed (network) form.
    let owned = simdnbt::owned::read(&mut Cursor::new(&owned_bytes[..])).unwrap();
    let mut again = Vec::new();
    owned.write(&mut again).unwrap();
    assert_eq!(again, owned_bytes);
    let mut unnamed = Vec::new();
    value.clone().to_nbt().write_unnamed(&mut unnamed).unwrap();
    let doc = simdnbt::borrow::read_unnamed(&mut Cursor::new(&unnamed[..]))
        .unwrap()
        .unwrap();
    assert_eq!(&T::from_nbt(&doc).unwrap(), value);
}

#[test]
fn hypixel_style_inventory_round_trips() {
    let base = Base {
        items: (0..6).map(|n| (n != 2).then(|| Item::sample(n))).collect(),
    };
    round_trip(&base);
    // `None` fields are left out, not written as some placeholder.
    let c = Item::sample(2).to_compound();
    let tag = c.compound("tag").unwrap();
    assert!(!tag.contains("SkullOwner"));
    assert!(
        !tag.compound("ExtraAttributes")
            .unwrap()
            .contains("modifier")
    );
    // Unsigned-free numbers keep their NBT types.
    assert_eq!(c.short("id"), Some(397));
    assert_eq!(c.byte("Count"), Some(1));
}

/// The real hypixel.nbt from the corpus, read into the derived types.
#[test]
fn hypixel_file_reads_into_derived_structs() {
    let bytes = corpus::load("hypixel.nbt").unwrap();
    let nbt = simdnbt::borrow::read(&mut Cursor::new(bytes))
        .unwrap()
        .unwrap();
    let base = Base::from_nbt(&nbt).unwrap();
    assert!(!base.items.is_empty());
    let first = base.items.iter().flatten().next().unwrap();
    assert!(!first.tag.display.name.is_empty());
    round_trip(&base);
}

// ---------------------------------------------------------------------------
// In the style of upstream's `registry` example.

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[simdnbt(deny_unknown_fields)]
pub struct TrimMaterialElement {
    pub asset_name: String,
    pub item_model_index: f32,
    pub override_armor_materials: HashMap<String, String>,
    pub description: Option<String>,
}

#[test]
fn registry_style_element_round_trips_and_rejects_unknown_keys() {
    let original = TrimMaterialElement {
        asset_name: "asset name".to_string(),
        item_model_index: 0.5,
        override_armor_materials: HashMap::from_iter(vec![
            ("iron".into(), "iron_darker".into()),
            ("gold".into(), "gold_darker".into()),
        ]),
        description: Some("description".to_string()),
    };
    round_trip(&original);

    let mut c = original.clone().to_compound();
    c.insert("ingredient", "minecraft:iron_ingot");
    let mut bytes = Vec::new();
    BaseNbt::new("", c).write(&mut bytes).unwrap();
    let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
        .unwrap()
        .unwrap();
    let e = TrimMaterialElement::from_nbt(&nbt).unwrap_err();
    assert_eq!(
        e.kind(),
        &DeserializeErrorKind::UnknownField("ingredient".into())
    );
    assert_eq!(e.to_string(), "unknown field ingredient");
}

// ---------------------------------------------------------------------------
// Errors name the path of the value.

#[derive(Debug, Deserialize, Serialize, Clone, PartialEq)]
struct Player {
    #[simdnbt(rename = "Inventory")]
    inventory: Vec<Item>,
}

fn doc_bytes(c: NbtCompound) -> Vec<u8> {
    let mut bytes = Vec::new();
    BaseNbt::new("", c).write(&mut bytes).unwrap();
    bytes
}

fn read_player(bytes: &[u8]) -> Result<Player, simdnbt::DeserializeError> {
    let nbt = simdnbt::borrow::read(&mut Cursor::new(bytes))
        .unwrap()
        .unwrap();
    Player::from_nbt(&nbt)
}

#[test]
fn errors_name_the_field_path() {
    let player = Player {
        inventory: (0..5).map(Item::sample).collect(),
    };
    let good = player.clone().to_compound();
    assert_eq!(read_player(&doc_bytes(good.clone())).unwrap(), player);

    // A wrong type four levels down.
    let mut bad = good.clone();
    let NbtTag::List(NbtList::Compound(items)) = bad.get_mut("Inventory").unwrap() else {
        unreachable!()
    };
    let display = items[3]
        .compound_mut("tag")
        .unwrap()
        .compound_mut("display")
        .unwrap();
    *display.get_mut("Name").unwrap() = NbtTag::Int(5);
    let e = read_player(&doc_bytes(bad)).unwrap_err();
    assert_eq!(e.path().to_string(), "Inventory[3].tag.display.Name");
    assert_eq!(
        e.to_string(),
        "mismatched type at Inventory[3].tag.display.Name: expected alloc::string::String, found a Int tag"
    );

    // A missing field.
    let mut bad = good.clone();
    let NbtTag::List(NbtList::Compound(items)) = bad.get_mut("Inventory").unwrap() else {
        unreachable!()
    };
    items[1].remove("Count");
    let e = read_player(&doc_bytes(bad)).unwrap_err();
    assert_eq!(e.kind(), &DeserializeErrorKind::MissingField);
    assert_eq!(e.to_string(), "missing field Inventory[1].Count");

    // A list of the wrong element type.
    let mut bad = good;
    *bad.get_mut("Inventory").unwrap() = NbtTag::List(NbtList::Int(vec![1]));
    let e = read_player(&doc_bytes(bad)).unwrap_err();
    assert_eq!(e.path().to_string(), "Inventory");
}

// ---------------------------------------------------------------------------
// The attributes serde users expect: default (field, function, container),
// skip, flatten, generics, newtypes, unit enums.

fn default_level() -> i32 {
    42
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
struct Settings {
    #[simdnbt(default)]
    volume: i32,
    #[simdnbt(default = "default_level")]
    level: i32,
    #[simdnbt(skip)]
    cache: Vec<u8>,
    name: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[simdnbt(default)]
struct Window {
    width: i32,
    height: i32,
    title: String,
}

impl Default for Window {
    fn default() -> Self {
        Window {
            width: 854,
            height: 480,
            title: "Minecraft".into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Pos {
    x: f64,
    y: f64,
    z: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Entity {
    id: String,
    #[simdnbt(flatten)]
    pos: Pos,
    mode: GameMode,
    #[simdnbt(rename = "Uuid")]
    uuid: Uuid,
    extra: Wrapper<u32>,
    #[simdnbt(rename = "Motion")]
    motion: Vec<f64>,
    #[simdnbt(rename = "Rotation")]
    rotation: Vec<f32>,
    #[simdnbt(rename = "UUID")]
    uuid_ints: Vec<i32>,
}

#[derive(Debug, Clone, Copy, PartialEq, FromNbtTag, ToNbtTag)]
enum GameMode {
    #[simdnbt(rename = "survival")]
    Survival,
    #[simdnbt(rename = "creative")]
    Creative,
    Spectator,
}

/// A newtype stored as its inner tag.
#[derive(Debug, Clone, Copy, PartialEq, FromNbtTag, ToNbtTag)]
struct Uuid(i64);

/// A generic struct.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Wrapper<T> {
    value: T,
    all: Vec<Pos>,
}

/// A newtype of a compound type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Spawn(Pos);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Marker;

fn read_compound<T: Deserialize>(c: NbtCompound) -> Result<T, simdnbt::DeserializeError> {
    let bytes = doc_bytes(c);
    let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
        .unwrap()
        .unwrap();
    T::from_nbt(&nbt)
}

#[test]
fn defaults_skip_and_options() {
    let s: Settings = read_compound(NbtCompound::new()).unwrap();
    assert_eq!(
        s,
        Settings {
            volume: 0,
            level: 42,
            cache: vec![],
            name: None
        }
    );
    let full = Settings {
        volume: 3,
        level: 4,
        cache: vec![1, 2],
        name: Some("x".into()),
    };
    let c = full.clone().to_compound();
    assert!(!c.contains("cache"), "skipped fields are not written");
    assert_eq!(c.len(), 3);
    let back: Settings = read_compound(c).unwrap();
    assert_eq!(
        back,
        Settings {
            cache: vec![],
            ..full
        }
    );
    // A present value of the wrong type is still an error, default or not.
    let mut c = NbtCompound::new();
    c.insert("volume", "loud");
    let e = read_compound::<Settings>(c).unwrap_err();
    assert_eq!(e.path().to_string(), "volume");

    let mut c = NbtCompound::new();
    c.insert("title", "Hi");
    let w: Window = read_compound(c).unwrap();
    assert_eq!(
        w,
        Window {
            title: "Hi".into(),
            ..Window::default()
        }
    );
    round_trip(&w);
}

#[test]
fn flatten_generics_newtypes_and_enums() {
    let e = Entity {
        id: "minecraft:pig".into(),
        pos: Pos {
            x: 1.0,
            y: 64.0,
            z: -3.5,
        },
        mode: GameMode::Creative,
        uuid: Uuid(-7),
        extra: Wrapper {
            value: 0xffff_fff0,
            all: vec![Pos {
                x: 0.0,
                y: 0.0,
                z: 0.0,
            }],
        },
        motion: vec![0.0, -0.0784, 0.0],
        rotation: vec![344.7, 14.2],
        uuid_ints: vec![1, 2, 3, 4],
    };
    round_trip(&e);
    let c = e.clone().to_compound();
    assert_eq!(
        c.double("x"),
        Some(1.0),
        "flattened fields sit beside the others"
    );
    assert_eq!(c.string("mode").unwrap().to_str(), "creative");
    assert_eq!(c.long("Uuid"), Some(-7));
    assert_eq!(c.compound("extra").unwrap().int("value"), Some(-16));
    assert_eq!(c.list("Motion").unwrap().doubles().unwrap().len(), 3);
    assert_eq!(c.int_array("UUID"), Some(&[1, 2, 3, 4][..]));
    // A List of Int reads as a Vec<i32> too; an untyped empty list as empty.
    let mut as_list = c.clone();
    *as_list.get_mut("UUID").unwrap() = NbtTag::List(NbtList::Int(vec![5]));
    *as_list.get_mut("Motion").unwrap() = NbtTag::List(NbtList::Empty);
    let read = read_compound::<Entity>(as_list).unwrap();
    assert_eq!((read.uuid_ints, read.motion), (vec![5], vec![]));

    let mut bad = c.clone();
    *bad.get_mut("mode").unwrap() = NbtTag::String("hardcore".into());
    let err = read_compound::<Entity>(bad).unwrap_err();
    assert_eq!(err.path().to_string(), "mode");
    assert_eq!(
        GameMode::Spectator.to_nbt_tag(),
        NbtTag::String("Spectator".into())
    );

    let spawn = Spawn(Pos {
        x: 1.0,
        y: 2.0,
        z: 3.0,
    });
    round_trip(&spawn);
    assert_eq!(spawn.to_compound().len(), 3);
    round_trip(&Marker);
}

// ---------------------------------------------------------------------------
// Patterns of crates that depend on simdnbt 0.10.

/// A buffer-reading trait as protocol crates have, reading NBT from a packet.
trait ReadFromBuf: Sized {
    fn read_from(buf: &mut Cursor<&[u8]>) -> Result<Self, BufReadError>;
}

#[derive(Debug)]
enum BufReadError {
    Nbt(simdnbt::Error),
    Deserialize(simdnbt::DeserializeError),
    UnexpectedTag(u8),
}

impl From<simdnbt::Error> for BufReadError {
    fn from(e: simdnbt::Error) -> Self {
        Self::Nbt(e)
    }
}

impl From<simdnbt::DeserializeError> for BufReadError {
    fn from(e: simdnbt::DeserializeError) -> Self {
        Self::Deserialize(e)
    }
}

impl std::fmt::Display for BufReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Nbt(e) => write!(f, "nbt: {e}"),
            Self::Deserialize(e) => write!(f, "deserialize: {e}"),
            Self::UnexpectedTag(id) => write!(f, "tag {id}"),
        }
    }
}

impl std::error::Error for BufReadError {}

impl ReadFromBuf for NbtTag {
    fn read_from(buf: &mut Cursor<&[u8]>) -> Result<Self, BufReadError> {
        Ok(simdnbt::owned::read_tag(buf).map_err(simdnbt::Error::from)?)
    }
}

struct OptionalCompound(Option<NbtCompound>);

impl ReadFromBuf for OptionalCompound {
    fn read_from(buf: &mut Cursor<&[u8]>) -> Result<Self, BufReadError> {
        let mut id = [0];
        std::io::Read::read_exact(buf, &mut id).map_err(|_| simdnbt::Error::UnexpectedEof)?;
        match id[0] {
            10 => Ok(Self(Some(
                simdnbt::owned::read_compound(buf).map_err(simdnbt::Error::from)?,
            ))),
            0 => Ok(Self(None)),
            other => Err(BufReadError::UnexpectedTag(other)),
        }
    }
}

/// Registry data sent as NBT and read into a derived type, as clients do.
fn from_network_nbt<T: Deserialize>(bytes: &[u8]) -> Result<T, BufReadError> {
    let tag = simdnbt::borrow::read_tag(&mut Cursor::new(bytes))?;
    let tag = tag.as_tag();
    let compound = tag
        .compound()
        .ok_or(BufReadError::UnexpectedTag(tag.id()))?;
    Ok(T::from_compound(compound)?)
}

#[test]
fn protocol_crate_patterns() {
    // A tag read then written gives the bytes back (the id included).
    let tag = NbtTag::Compound(NbtCompound::from_values(vec![(
        "text".into(),
        NbtTag::String("hello".into()),
    )]));
    let mut bytes = Vec::new();
    tag.write(&mut bytes);
    let read = NbtTag::read_from(&mut Cursor::new(&bytes[..])).unwrap();
    assert_eq!(read, tag);
    let mut again = Vec::new();
    read.write(&mut again);
    assert_eq!(again, bytes);

    let mut packet = vec![0x0a];
    tag.compound().unwrap().write(&mut packet);
    let c = OptionalCompound::read_from(&mut Cursor::new(&packet[..])).unwrap();
    assert_eq!(c.0.unwrap().string("text").unwrap().to_str(), "hello");
    assert!(
        OptionalCompound::read_from(&mut Cursor::new(&[0u8][..]))
            .unwrap()
            .0
            .is_none()
    );

    // Errors compare with upstream's variants.
    let e = NbtTag::read_from(&mut Cursor::new(&[0x03, 0][..])).unwrap_err();
    let BufReadError::Nbt(e) = e else {
        unreachable!()
    };
    assert_eq!(e, simdnbt::Error::UnexpectedEof);
    assert_ne!(e, simdnbt::Error::MaxDepthExceeded);
    assert_eq!(
        e.offset(),
        2,
        "and still say where: the input ended at byte 2"
    );
    let e = simdnbt::owned::read_tag(&mut Cursor::new(&[0x0d][..])).unwrap_err();
    assert_eq!(simdnbt::Error::from(e), simdnbt::Error::UnknownTagId(13));
    let boxed: Box<dyn std::error::Error> =
        Box::new(BufReadError::from(simdnbt::Error::InvalidRootType(3)));
    assert!(boxed.to_string().contains("invalid root"));

    let element = TrimMaterialElement {
        asset_name: "a".into(),
        item_model_index: 1.0,
        override_armor_materials: HashMap::new(),
        description: None,
    };
    let mut net = Vec::new();
    NbtTag::Compound(element.clone().to_compound()).write(&mut net);
    let back: TrimMaterialElement = from_network_nbt(&net).unwrap();
    assert_eq!(back, element);
}

#[test]
fn owned_api_as_upstream_code_uses_it() {
    // `nbt.int("x")` on an `Nbt` (Deref to BaseNbt), iteration, into_iter.
    let mut c = NbtCompound::new();
    c.insert("x", 5);
    c.insert("flags", 200u8);
    c.insert("big", u64::MAX);
    c.insert("maybe", None::<i32>);
    c.insert("some", Some(1.5f32));
    c.insert("names", vec!["a".to_string(), "b".to_string()]);
    c.insert("pos", [1.0f64, 2.0, 3.0]);
    c.extend([("y", 6), ("z", 7)]);
    let nbt = Nbt::new("".into(), c);
    assert_eq!(nbt.int("x"), Some(5));
    assert_eq!(nbt.byte("flags"), Some(200u8 as i8));
    assert_eq!(nbt.long("big"), Some(-1));
    assert!(!nbt.contains("maybe"));
    assert_eq!(nbt.float("some"), Some(1.5));
    assert_eq!(nbt.iter().count(), 8);
    let keys: Vec<String> = nbt.iter().map(|(k, _)| k.to_string()).collect();
    assert_eq!(keys[0], "x");
    assert_eq!(Nbt::None.int("x"), None);

    // Taking a list's Vec by value. (A pattern that moves it out,
    // `match list { NbtList::Double(v) => v, .. }`, does not compile here:
    // `NbtList` has a `Drop`, see docs/upstream.md. The `into_*`
    // methods are upstream's too.)
    let pos = nbt.list("pos").unwrap().clone().into_doubles().unwrap();
    assert_eq!(pos, [1.0, 2.0, 3.0]);
    let names: Vec<String> = match nbt.list("names").cloned().and_then(NbtList::into_strings) {
        Some(v) => v.into_iter().map(|s| s.into_string()).collect(),
        None => vec![],
    };
    assert_eq!(names, ["a", "b"]);

    let tag: NbtTag = nbt.clone().into();
    assert_eq!(tag.compound().unwrap().int("y"), Some(6));
    let pairs: Vec<(simdnbt::Mutf8String, NbtTag)> = nbt.into_iter().collect();
    assert_eq!(pairs.len(), 8);

    // The typed traits on std types.
    let doc = {
        let mut c = NbtCompound::new();
        c.insert("u", 65535u16);
        c.insert("b", true);
        c.insert("s", "str");
        doc_bytes(c)
    };
    let base = simdnbt::borrow::read(&mut Cursor::new(&doc[..]))
        .unwrap()
        .unwrap();
    let root = base.as_compound();
    assert_eq!(u16::from_nbt_tag(root.get("u").unwrap()), Some(65535));
    assert_eq!(bool::from_nbt_tag(root.get("b").unwrap()), Some(true));
    assert_eq!(
        String::from_nbt_tag(root.get("s").unwrap()).as_deref(),
        Some("str")
    );
    assert_eq!(
        Option::<i64>::from_optional_nbt_tag(root.get("missing")).unwrap(),
        Some(None)
    );
    assert!(i32::from_optional_nbt_tag(root.get("missing")).is_err());
    let as_map = HashMap::<String, NbtTag>::from_nbt(&base).unwrap();
    assert_eq!(as_map.len(), 3);
    let owned = NbtCompound::from_compound(root).unwrap();
    assert_eq!(owned.len(), 3);
    let s: String = simdnbt::Mutf8Str::from_slice(b"abc").into();
    assert_eq!(s, "abc");
}

/// The `{"": value}` wrapper rule of 1.21.5 heterogeneous lists.
#[test]
fn heterogeneous_lists_wrap_elements() {
    let list = NbtList::from(vec![
        NbtTag::Int(1),
        NbtTag::String("two".into()),
        NbtTag::Compound(NbtCompound::from_values(vec![("".into(), NbtTag::Int(3))])),
        NbtTag::Compound(NbtCompound::from_values(vec![("k".into(), NbtTag::Int(4))])),
    ]);
    let Some(elements) = list.into_compounds() else {
        panic!("mixed types make a list of compounds")
    };
    assert_eq!(elements[0].int(""), Some(1));
    assert_eq!(elements[1].string("").unwrap().to_str(), "two");
    // A compound that looks like a wrapper is wrapped again, so unwrapping
    // gives it back; any other compound is an element as it is.
    assert_eq!(elements[2].compound("").unwrap().int(""), Some(3));
    assert_eq!(elements[3].int("k"), Some(4));
}

/// Borrowed list views as upstream code walks them.
#[test]
fn borrow_lists_approx_len_and_default() {
    let base = Base {
        items: (0..3).map(|n| Some(Item::sample(n))).collect(),
    };
    let mut bytes = Vec::new();
    base.to_nbt().write(&mut bytes);
    let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
        .unwrap()
        .unwrap();
    let items = nbt
        .list("i")
        .and_then(|l| l.compounds())
        .unwrap_or_default();
    let mut ids = Vec::with_capacity(items.approx_len() as usize);
    let mut iter = items.into_iter();
    assert_eq!(iter.approx_len(), 3);
    for item in &mut iter {
        ids.push(item.short("Damage").unwrap());
    }
    assert_eq!(ids, [0, 1, 2]);
    assert_eq!(iter.approx_len(), 0);

    let none = nbt
        .list("missing")
        .and_then(|l| l.lists())
        .unwrap_or_default();
    assert_eq!(none.approx_len(), 0);
    assert!(none.iter().next().is_none());
    assert!(
        simdnbt::borrow::NbtCompoundList::default()
            .first()
            .is_none()
    );
    assert!(simdnbt::borrow::NbtListListIter::default().next().is_none());
}

/// `deny_unknown_fields` with a flattened field, as registry crates write it:
/// the flattened type sees every key, so none counts as unknown.
#[test]
fn deny_unknown_fields_with_flatten() {
    #[derive(Debug, PartialEq, Deserialize, Serialize)]
    #[simdnbt(deny_unknown_fields)]
    struct Dimension {
        height: i32,
        #[simdnbt(flatten)]
        pos: Pos,
    }
    let d = Dimension {
        height: 384,
        pos: Pos {
            x: 1.0,
            y: 2.0,
            z: 3.0,
        },
    };
    let mut c = d.to_compound();
    assert_eq!(c.len(), 4);
    c.insert("extra", 1);
    assert_eq!(read_compound::<Dimension>(c).unwrap().height, 384);
}
