import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GROUP_LIMITS, type GroupMember, type RoomGroup } from '@mates/api-client';
import {
  Avatar,
  Button,
  Flex,
  Heading,
  Select,
  Sheet,
  Stack,
  Switch,
  Text,
  TextArea,
  TextField,
} from '@mates/ui';
import { currentMembers } from '../../components/group/group-look';
import { MatePicker } from '../../components/group/mate-picker';
import { TurnOrderSelect } from '../../components/group/turn-order-select';
import { GroupFailure } from '../../components/group/group-failure';
import { useGroupChanges, type GroupChanges } from '../../components/group/use-group-changes';

/** The talkativeness steps offered, each with its words. */
const TALKATIVENESS = [
  [0, 'group.talk0'],
  [0.25, 'group.talk25'],
  [0.5, 'group.talk50'],
  [0.75, 'group.talk75'],
  [1, 'group.talk100'],
] as const;

/** The step nearest a talkativeness (a card may say 0.6). */
const stepOf = (value: number) =>
  TALKATIVENESS.reduce((best, step) =>
    Math.abs(step[0] - value) < Math.abs(best[0] - value) ? step : best,
  )[0];

/** Props of {@link GroupMembersSheet}. */
export interface GroupMembersSheetProps {
  roomId: string;
  group: RoomGroup;
  /** Whether the chat can change (not read-only). */
  canChange: boolean;
  /**
   * Whether a reply is being written: members are invited or removed between turns only (the
   * server answers a change during a turn with 5007).
   */
  busy: boolean;
  open: boolean;
  onClose: () => void;
}

/**
 * A group's members and settings, in a sheet: each member muted or not, how readily it speaks,
 * removed (a group keeps at least two); a mate invited; the name, scenario and order; those
 * that left.
 */
export function GroupMembersSheet({
  roomId,
  group,
  canChange,
  busy,
  open,
  onClose,
}: GroupMembersSheetProps) {
  const { t } = useTranslation();
  const changes = useGroupChanges(roomId);
  // Why Remove and Invite wait, said under the list and read with each of them.
  const busyId = useId();
  const waiting = canChange && busy;
  const members = currentMembers(group);
  const former = group.members.filter((member) => member.leftAt !== null);
  // The member just moved, and which way: its row keeps the focus where it lands.
  const [moved, setMoved] = useState<Move | null>(null);
  const move = (mateId: string, by: -1 | 1) => {
    const order = members.map((member) => member.mate.mateId);
    const from = order.indexOf(mateId);
    [order[from], order[from + by]] = [order[from + by]!, order[from]!];
    setMoved({ mateId, by });
    changes.reorder.mutate(order);
  };
  return (
    <Sheet
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={t('group.membersTitle')}
      description={group.name}
      closeLabel={t('auth.close')}
      width={480}
      // The sheet itself takes the focus (its title names it), never a Remove button.
      onOpenAutoFocus={(event) => {
        event.preventDefault();
        (event.currentTarget as HTMLElement).focus();
      }}
    >
      <Stack gap={5}>
        <GroupFailure
          error={
            changes.member.error ??
            changes.reorder.error ??
            changes.remove.error ??
            changes.invite.error ??
            changes.settings.error
          }
        />
        <Stack as="ul" gap={4} aria-label={t('group.members')}>
          {members.map((member, index) => (
            <MemberRow
              key={member.mate.mateId}
              member={member}
              place={{ index, count: members.length }}
              moved={moved?.mateId === member.mate.mateId ? moved : null}
              onMove={(by) => move(member.mate.mateId, by)}
              changes={changes}
              canChange={canChange}
              canRemove={members.length > GROUP_LIMITS.minMembers}
              busyId={waiting ? busyId : undefined}
            />
          ))}
        </Stack>
        {waiting && (
          <Text id={busyId} tone="muted" size={2}>
            {t('group.busyMembers')}
          </Text>
        )}
        {canChange && members.length <= GROUP_LIMITS.minMembers && (
          <Text tone="muted" size={2}>
            {t('group.lastTwo', { min: GROUP_LIMITS.minMembers })}
          </Text>
        )}
        {canChange && (
          <Invite group={group} changes={changes} busyId={waiting ? busyId : undefined} />
        )}
        {canChange && <Settings group={group} changes={changes} />}
        {former.length > 0 && (
          <Stack gap={2}>
            <Heading as="h3" size={1}>
              {t('group.former')}
            </Heading>
            <Stack as="ul" gap={2} aria-label={t('group.former')}>
              {former.map(({ mate }) => (
                <Flex as="li" key={mate.mateId} gap={2} align="center">
                  <Avatar src={mate.avatar} name={mate.name} size="small" decorative />
                  <Text tone="muted">{mate.name}</Text>
                </Flex>
              ))}
            </Stack>
          </Stack>
        )}
      </Stack>
    </Sheet>
  );
}

/** A member moved in the list: up (`-1`) or down (`1`). */
interface Move {
  mateId: string;
  by: -1 | 1;
}

function MemberRow({
  member: { mate, muted, talkativeness, hidden },
  place: { index, count },
  moved,
  onMove,
  changes,
  canChange,
  canRemove,
  busyId,
}: {
  member: GroupMember;
  /** Where it is in the list of present members. */
  place: { index: number; count: number };
  /** How this member was just moved, if it was: its move button keeps the focus. */
  moved: Move | null;
  onMove: (by: -1 | 1) => void;
  changes: GroupChanges;
  canChange: boolean;
  canRemove: boolean;
  /** While a reply is written: the id of the words that say why Remove waits. */
  busyId: string | undefined;
}) {
  const { t } = useTranslation();
  const removing = changes.remove.isPending && changes.remove.variables === mate.mateId;
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const first = index === 0;
  const last = index === count - 1;
  // Moved, the row is laid again where it lands (the focused button may leave the page for a
  // moment, or turn disabled at an end of the list): the focus follows it.
  useEffect(() => {
    if (!moved) return;
    const same = moved.by < 0 ? up : down;
    const other = moved.by < 0 ? down : up;
    (same.current?.disabled ? other : same).current?.focus();
  }, [moved, index]);
  const waits = changes.reorder.isPending || busyId !== undefined;
  return (
    <Stack as="li" gap={2}>
      <Flex gap={2} align="center" justify="between" wrap>
        <Flex gap={2} align="center">
          <Avatar src={mate.avatar} name={mate.name} size="small" decorative />
          <Stack gap={1}>
            <Text weight="medium">{mate.name}</Text>
            {hidden && (
              <Text tone="muted" size={2}>
                {t('group.hiddenMember')}
              </Text>
            )}
          </Stack>
        </Flex>
        {canChange && (
          <Flex gap={1} align="center">
            <Button
              ref={up}
              size="small"
              variant="ghost"
              disabled={first || waits}
              aria-describedby={busyId}
              aria-label={t('group.moveUp', { name: mate.name })}
              onClick={() => onMove(-1)}
            >
              ↑
            </Button>
            <Button
              ref={down}
              size="small"
              variant="ghost"
              disabled={last || waits}
              aria-describedby={busyId}
              aria-label={t('group.moveDown', { name: mate.name })}
              onClick={() => onMove(1)}
            >
              ↓
            </Button>
            <Button
              size="small"
              variant="ghost"
              disabled={!canRemove || busyId !== undefined}
              aria-describedby={busyId}
              aria-busy={removing}
              aria-label={t('group.remove', { name: mate.name })}
              // Pressed again before the server answered: removed once (a second is refused).
              onClick={() => !changes.remove.isPending && changes.remove.mutate(mate.mateId)}
            >
              {t('group.removeShort')}
            </Button>
          </Flex>
        )}
      </Flex>
      {/* A hidden member cannot be muted or tuned (the server answers 4000): it is quiet. */}
      {canChange && !hidden && (
        <Stack gap={2}>
          <Switch
            label={t('group.mute', { name: mate.name })}
            checked={muted}
            onCheckedChange={(next) => changes.member.mutate({ mateId: mate.mateId, muted: next })}
          />
          <Select
            label={t('group.talkativeness', { name: mate.name })}
            value={String(stepOf(talkativeness))}
            onValueChange={(value) =>
              changes.member.mutate({ mateId: mate.mateId, talkativeness: Number(value) })
            }
            options={TALKATIVENESS.map(([value, text]) => ({
              value: String(value),
              label: t(text),
            }))}
          />
        </Stack>
      )}
    </Stack>
  );
}

/**
 * "Invite a mate": the mate picker, each mate chosen joining at once (while there is room, and
 * between turns: `busyId` names why it waits).
 */
function Invite({
  group,
  changes,
  busyId,
}: {
  group: RoomGroup;
  changes: GroupChanges;
  busyId: string | undefined;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const members = currentMembers(group);
  const full = members.length >= GROUP_LIMITS.maxMembers;
  return (
    <Stack gap={2}>
      <Button
        variant="soft"
        size="small"
        aria-expanded={open}
        disabled={full || busyId !== undefined}
        aria-describedby={busyId}
        onClick={() => setOpen((now) => !now)}
      >
        {t('group.invite')}
      </Button>
      {full && (
        <Text tone="muted" size={2}>
          {t('group.full', { max: GROUP_LIMITS.maxMembers })}
        </Text>
      )}
      {open && !full && (
        <MatePicker
          chosen={[]}
          full={changes.invite.isPending || busyId !== undefined}
          exclude={members.map((member) => member.mate.mateId)}
          onToggle={(mate) => changes.invite.mutate(mate.mateId)}
        />
      )}
    </Stack>
  );
}

/** The group's name, scenario and order, saved together. */
function Settings({ group, changes }: { group: RoomGroup; changes: GroupChanges }) {
  const { t } = useTranslation();
  const [name, setName] = useState(group.name);
  const [scenario, setScenario] = useState(group.scenario);
  const [turnOrder, setTurnOrder] = useState(group.turnOrder);
  // The fields take the group as saved whenever it changes (a save here, a change elsewhere).
  // Not by remounting the form under a new key: its Save button, pressed, went with it, and the
  // focus fell to the sheet.
  const [saved, setSaved] = useState(false);
  const [shown, setShown] = useState(group);
  if (
    shown.name !== group.name ||
    shown.scenario !== group.scenario ||
    shown.turnOrder !== group.turnOrder
  ) {
    setShown(group);
    setName(group.name);
    setScenario(group.scenario);
    setTurnOrder(group.turnOrder);
  }
  return (
    <form
      aria-label={t('group.settings')}
      onSubmit={(event) => {
        event.preventDefault();
        setSaved(false);
        // Said in the sheet, not as a notice: a notice over the open sheet took the first
        // Escape, which left the sheet open.
        changes.settings.mutate(
          { name: name.trim() || group.name, scenario, turnOrder },
          { onSuccess: () => setSaved(true) },
        );
      }}
    >
      <Stack gap={3}>
        <Heading as="h3" size={1}>
          {t('group.settings')}
        </Heading>
        <TextField
          label={t('group.name')}
          value={name}
          maxLength={GROUP_LIMITS.nameMax}
          onChange={(event) => {
            setName(event.target.value);
            setSaved(false);
          }}
        />
        <TextArea
          label={t('group.scenario')}
          placeholder={t('group.scenarioPlaceholder')}
          value={scenario}
          maxLength={GROUP_LIMITS.scenarioMax}
          rows={3}
          onChange={(event) => {
            setScenario(event.target.value);
            setSaved(false);
          }}
        />
        <TurnOrderSelect
          value={turnOrder}
          onValueChange={(order) => {
            setTurnOrder(order);
            setSaved(false);
          }}
        />
        <Flex justify="end" align="center" gap={2}>
          <Text role="status" tone="muted" size={2}>
            {saved ? t('group.saved') : null}
          </Text>
          <Button type="submit" size="small" aria-busy={changes.settings.isPending}>
            {t('group.saveSettings')}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}
